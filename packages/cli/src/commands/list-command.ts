import { defineCommand } from '../cli-command.js';
import { configFlags } from './config-flags.js';

/** `toolwright list`: the registered tools' declarations, in a provider's format. */
export const listCommand = defineCommand({
  options: {
    project: { type: 'string', short: 'p' },
    format: { type: 'string', default: 'json' },
    'no-core': { type: 'boolean', default: false },
    workspace: { type: 'string' },
    config: { type: 'string' },
  },
  async run(values, _positionals, io) {
    const { openToolEnvironment } = await import('../call-environment.js');
    const { listTools } = await import('./list.js');
    const { registry } = await openToolEnvironment({ ...configFlags(values), ...(values['no-core'] ? { core: false } : {}) }, io);
    io.out(`${JSON.stringify(listTools(registry, values.format), null, 2)}\n`);
    return 0;
  },
});
