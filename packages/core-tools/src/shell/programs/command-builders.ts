import type { ProgramSpec } from './program-spec.js';

/** Programs that run a command whose words Toolwright never sees. */
export const COMMAND_BUILDERS: readonly ProgramSpec[] = [
  { name: 'xargs', role: 'plain', syntax: 'getopt', options: [], refused: 'builds-commands', usage: { operands: ['ls'] } },
  { name: 'parallel', role: 'plain', syntax: 'getopt', options: [], refused: 'builds-commands', usage: { operands: ['ls'] } },
  { name: 'watch', role: 'plain', syntax: 'getopt', options: [], refused: 'reruns-through-shell', usage: { operands: ['ls'] } },
];
