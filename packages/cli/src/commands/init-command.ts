import { defineCommand } from '../cli-command.js';

/** `toolwright init`: sets up the current directory for tools. */
export const initCommand = defineCommand({
  options: { force: { type: 'boolean', default: false }, typescript: { type: 'string' } },
  async run(values, _positionals, io) {
    const { init, formatInitResult } = await import('./init.js');
    io.out(formatInitResult(init({ dir: process.cwd(), force: values.force, ...(values.typescript !== undefined ? { typescript: values.typescript } : {}) })));
    return 0;
  },
});
