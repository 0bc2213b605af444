import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/** GNU sort: `-o` and `-T` write files of its own, `--compress-program` runs one. */
export const sort: ProgramSpec = {
  name: 'sort',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-b --ignore-leading-blanks', '-d --dictionary-order', '-f --ignore-case', '-g --general-numeric-sort', '-i --ignore-nonprinting'),
    ...flags('-M --month-sort', '-h --human-numeric-sort', '-n --numeric-sort', '-R --random-sort', '-r --reverse', '-V --version-sort'),
    ...flags('-c', '-C', '--debug', '-m --merge', '-s --stable', '-u --unique', '-z --zero-terminated', '--help', '--version'),
    ...valued('--random-source', '--sort', '--batch-size', '-k --key', '-S --buffer-size', '-t --field-separator', '--parallel'),
    ...optional('--check'),
    refuse('writes-files', '-o --output', { value: 'required' }),
    refuse('writes-files', '-T --temporary-directory', { value: 'required' }),
    refuse('runs-programs', '--compress-program', { value: 'required' }),
    refuse('reads-name-list', '--files0-from', { value: 'required' }),
  ],
  usage: { operands: ['notes.txt'] },
};
