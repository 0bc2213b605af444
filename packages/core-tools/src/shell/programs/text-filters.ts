import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

const GNU_INFO = flags('--help', '--version');

/** GNU cat. */
export const cat: ProgramSpec = {
  name: 'cat',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-A --show-all', '-b --number-nonblank', '-e', '-E --show-ends', '-n --number', '-s --squeeze-blank', '-t', '-T --show-tabs'),
    ...flags('-u', '-v --show-nonprinting'),
    ...GNU_INFO,
  ],
  usage: { operands: ['notes.txt'] },
};

/** GNU head; `-5` is `-n 5`. */
export const head: ProgramSpec = {
  name: 'head',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-q --quiet --silent', '-v --verbose', '-z --zero-terminated'), ...valued('-c --bytes', '-n --lines'), ...GNU_INFO],
  usage: { operands: ['notes.txt'] },
};

/** GNU tail; `-f` only keeps reading the files it was given. */
export const tail: ProgramSpec = {
  name: 'tail',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-f', '-F', '-q --quiet --silent', '--retry', '-v --verbose', '-z --zero-terminated'),
    ...valued('-c --bytes', '-n --lines', '--max-unchanged-stats', '--pid', '-s --sleep-interval'),
    ...optional('--follow'),
    ...GNU_INFO,
  ],
  usage: { operands: ['notes.txt'] },
};

/** GNU wc. */
export const wc: ProgramSpec = {
  name: 'wc',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-c --bytes', '-m --chars', '-l --lines', '-L --max-line-length', '-w --words'),
    ...valued('--total'),
    ...GNU_INFO,
    refuse('reads-name-list', '--files0-from', { value: 'required' }),
  ],
  usage: { operands: ['notes.txt'] },
};

/** GNU cut. */
export const cut: ProgramSpec = {
  name: 'cut',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-n', '--complement', '-s --only-delimited', '-z --zero-terminated'),
    ...valued('-b --bytes', '-c --characters', '-d --delimiter', '-f --fields', '--output-delimiter'),
    ...GNU_INFO,
  ],
  usage: { options: ['-c', '1-3'], operands: ['notes.txt'] },
};

/** GNU tr: it reads standard input only. */
export const tr: ProgramSpec = {
  name: 'tr',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-c -C --complement', '-d --delete', '-s --squeeze-repeats', '-t --truncate-set1'), ...GNU_INFO],
  usage: { operands: ['a-z', 'A-Z'] },
};

/** GNU uniq: its second operand is a file it writes. */
export const uniq: ProgramSpec = {
  name: 'uniq',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-c --count', '-d --repeated', '-D', '-i --ignore-case', '-u --unique', '-z --zero-terminated'),
    ...valued('-f --skip-fields', '-s --skip-chars', '-w --check-chars'),
    ...optional('--all-repeated', '--group'),
    ...GNU_INFO,
  ],
  usage: { operands: ['notes.txt'] },
};
