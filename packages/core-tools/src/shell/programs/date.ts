import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/** GNU date: `-s` sets the clock; `-I` takes its format only glued (`-Iseconds`). */
export const date: ProgramSpec = {
  name: 'date',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('--debug', '-R --rfc-email', '--resolution', '-u --utc --universal', '--help', '--version'),
    ...valued('-d --date', '-f --file', '--rfc-3339', '-r --reference'),
    ...optional('-I --iso-8601'),
    refuse('sets-clock', '-s --set', { value: 'required' }),
  ],
  usage: { operands: ['+%F'] },
};
