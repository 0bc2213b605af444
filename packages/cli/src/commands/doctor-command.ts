import { defineCommand } from '../cli-command.js';
import { configFlags } from './config-flags.js';

/** `toolwright doctor`: what this machine and configuration give the tools, and what is missing. */
export const doctorCommand = defineCommand({
  options: {
    workspace: { type: 'string' },
    config: { type: 'string' },
  },
  async run(values, _positionals, io) {
    const { diagnose } = await import('./doctor.js');
    const report = await diagnose(configFlags(values));
    io.out(`${report.lines.join('\n')}\n`);
    return report.ok ? 0 : 1;
  },
});
