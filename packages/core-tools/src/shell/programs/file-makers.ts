import { flags, optional, valued, type ProgramSpec } from './program-spec.js';

const GNU_INFO = flags('--help', '--version');

/** GNU mkdir. */
export const mkdir: ProgramSpec = {
  name: 'mkdir',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-p --parents', '-v --verbose', '-Z'), ...valued('-m --mode'), ...optional('--context'), ...GNU_INFO],
  usage: { operands: ['new-dir'] },
};

/** GNU touch. */
export const touch: ProgramSpec = {
  name: 'touch',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-a', '-c --no-create', '-f', '-h --no-dereference', '-m'), ...valued('-d --date', '-r --reference', '-t', '--time'), ...GNU_INFO],
  usage: { operands: ['new-file'] },
};
