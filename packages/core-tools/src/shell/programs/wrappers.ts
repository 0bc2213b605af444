import { flags, refuse, valued, type ProgramSpec } from './program-spec.js';

const plainUse = (name: string) => `use ${name} only to run a command with its plain options`;

/**
 * env runs its command with no options at all: `-S` would split one argument into a new command
 * line, `-C` moves elsewhere, and `-i`, `-u` and `-` would remove the environment that neutralises
 * configuration (git's overrides, the private HOME). Variables it would set are refused too.
 */
export const env: ProgramSpec = {
  name: 'env',
  role: 'wrapper',
  syntax: 'listed',
  options: [
    refuse('drops-environment', '-i --ignore-environment -'),
    refuse('drops-environment', '-u --unset', { value: 'required' }),
    refuse('moves-elsewhere', '-C --chdir', { value: 'required' }),
    refuse('builds-commands', '-S --split-string', { value: 'required' }),
  ],
  refusesAssignments: true,
  plainUse: plainUse('env'),
  usage: { operands: ['ls'] },
};

/** GNU timeout: its DURATION comes before the command. */
export const timeout: ProgramSpec = {
  name: 'timeout',
  role: 'wrapper',
  syntax: 'listed',
  gluedValues: true,
  leadingOperands: 1,
  options: [...flags('--foreground', '--preserve-status', '-v --verbose'), ...valued('-s --signal', '-k --kill-after')],
  plainUse: plainUse('timeout'),
  usage: { operands: ['5', 'ls'] },
};

/** GNU nice: `-n 5`, `--adjustment=5` or `-5`. */
export const nice: ProgramSpec = {
  name: 'nice',
  role: 'wrapper',
  syntax: 'listed',
  gluedValues: true,
  numericOption: true,
  options: valued('-n --adjustment'),
  plainUse: plainUse('nice'),
  usage: { operands: ['ls'] },
};

/** GNU nohup. */
export const nohup: ProgramSpec = { name: 'nohup', role: 'wrapper', syntax: 'listed', options: [], plainUse: plainUse('nohup'), usage: { operands: ['ls'] } };

/** bash's command: `-p` searches the default PATH; `-v` and `-V` would describe instead of run. */
export const command: ProgramSpec = {
  name: 'command',
  role: 'wrapper',
  syntax: 'listed',
  options: flags('-p'),
  plainUse: plainUse('command'),
  usage: { operands: ['ls'] },
};
