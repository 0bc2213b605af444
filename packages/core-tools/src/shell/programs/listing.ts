import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/** GNU ls: `-H` follows links named on the command line only, which the argument checks resolve. */
export const ls: ProgramSpec = {
  name: 'ls',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  treeReader: { trees: 'with-option', cwd: true },
  options: [
    { names: ['-R', '--recursive'], readsTrees: true },
    ...flags('-a --all', '-A --almost-all', '--author', '-b --escape', '-B --ignore-backups', '-c', '-C', '-d --directory', '-D --dired', '-f', '-F'),
    ...flags('--file-type', '--full-time', '-g', '--group-directories-first', '-G --no-group', '-h --human-readable', '--si'),
    ...flags('-H --dereference-command-line', '--dereference-command-line-symlink-to-dir', '-i --inode', '-k --kibibytes', '-l', '-m'),
    ...flags('-n --numeric-uid-gid', '-N --literal', '-o', '-p', '-q --hide-control-chars', '--show-control-chars', '-Q --quote-name'),
    ...flags('-r --reverse', '-s --size', '-S', '-t', '-u', '-U', '-v', '-x', '-X', '-Z --context', '--zero', '-1', '--help', '--version'),
    ...valued('--block-size', '--format', '--hide', '--indicator-style', '-I --ignore', '--quoting-style', '--sort', '--time', '--time-style'),
    ...valued('-T --tabsize', '-w --width'),
    ...optional('--color', '--hyperlink', '--classify'),
    refuse('follows-links', '-L --dereference'),
  ],
  usage: { operands: ['notes.txt'] },
};

/**
 * tree: `-o` and `-R` (which writes `00Tree.html` into every directory) write files. Its long
 * options are exact, but refused ones are refused by prefix anyway; `--output` is refused with
 * `-o` where a version reads it so.
 */
export const tree: ProgramSpec = {
  name: 'tree',
  role: 'reader',
  syntax: 'getopt',
  valuesFromNextWord: true,
  defaultAllow: true,
  treeReader: { trees: 'always', cwd: true },
  options: [
    ...flags('-a', '-d', '-f', '-x', '-A', '-C', '-D', '-F', '-J', '-N', '-Q', '-S', '-X', '-g', '-h', '-i', '-n', '-p', '-q', '-r', '-s', '-t', '-u', '-v'),
    ...flags('-c', '-U', '--inodes', '--device', '--noreport', '--dirsfirst', '--filesfirst', '--du', '--prune', '--gitignore', '--matchdirs'),
    ...flags('--metafirst', '--info', '--ignore-case', '--si', '--nolinks', '--fromfile', '--fromtabfile', '--fflinks', '--help', '--version'),
    ...valued('-L', '-P', '-I', '-H', '-T', '--filelimit', '--timefmt', '--charset', '--sort', '--gitfile', '--infofile', '--hintro', '--houtro'),
    refuse('follows-links', '-l --follow'),
    refuse('writes-files', '-o --output', { value: 'required' }),
    refuse('writes-files', '-R'),
  ],
  usage: { operands: ['src'] },
};
