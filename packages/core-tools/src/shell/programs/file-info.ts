import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/** GNU stat. */
export const stat: ProgramSpec = {
  name: 'stat',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-f --file-system', '-t --terse', '--help', '--version'),
    ...valued('-c --format', '--printf', '--cached'),
    refuse('follows-links', '-L --dereference'),
  ],
  usage: { operands: ['notes.txt'] },
};

/**
 * file: `-f` reads the names to test from a file; `-C` writes a compiled magic file; `-z`/`-Z` run a decompressor
 * (gzip, zstd, lz4, ... found on PATH) on each compressed file, as ripgrep's `-z` does (a red-team pass).
 */
export const file: ProgramSpec = {
  name: 'file',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-0 --print0', '-v --version', '--help', '-b --brief', '-c --checking-printout'),
    ...flags('-i --mime', '--apple', '--extension', '--mime-type', '--mime-encoding', '-k --keep-going', '-l --list', '-h --no-dereference'),
    ...flags('-n --no-buffer', '-N --no-pad', '-p --preserve-date', '-r --raw', '-s --special-files', '-S --no-sandbox', '-d --debug'),
    ...valued('-m --magic-file', '-e --exclude', '--exclude-quiet', '-F --separator', '-P --parameter'),
    refuse('follows-links', '-L --dereference'),
    refuse('reads-name-list', '-f --files-from', { value: 'required' }),
    refuse('writes-files', '-C --compile'),
    refuse('runs-programs', '-z --uncompress'),
    refuse('runs-programs', '-Z --uncompress-noreport'),
  ],
  usage: { operands: ['notes.txt'] },
};

/** GNU du: `-D`/`-H` follow links named on the command line only, which the argument checks resolve. */
export const du: ProgramSpec = {
  name: 'du',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  treeReader: { trees: 'always', cwd: true },
  options: [
    ...flags('-0 --null', '-a --all', '--apparent-size', '-b --bytes', '-c --total', '-D -H --dereference-args', '-h --human-readable', '--inodes'),
    ...flags('-k', '-l --count-links', '-m', '-P --no-dereference', '-S --separate-dirs', '--si', '-s --summarize', '-x --one-file-system'),
    ...flags('--help', '--version'),
    ...valued('-B --block-size', '-d --max-depth', '-t --threshold', '--time-style', '-X --exclude-from', '--exclude'),
    ...optional('--time'),
    refuse('follows-links', '-L --dereference'),
    refuse('reads-name-list', '--files0-from', { value: 'required' }),
  ],
  usage: { operands: ['src'] },
};
