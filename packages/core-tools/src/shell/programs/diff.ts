import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/**
 * GNU diff: a recursive diff follows every symbolic link it meets unless told not to. Given a
 * directory, it reads the files in it even without `-r` (`diff dir other` compares `dir/x` with
 * `other/x`), so its operands, and `--from-file`/`--to-file`, are read as trees.
 */
export const diff: ProgramSpec = {
  name: 'diff',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  treeReader: { trees: 'always' },
  options: [
    { names: ['--from-file'], value: 'required', treeValue: true },
    { names: ['--to-file'], value: 'required', treeValue: true },
    ...flags('--normal', '-q --brief', '-s --report-identical-files', '-c', '-u', '-e --ed', '-n --rcs', '-y --side-by-side', '--left-column'),
    ...flags('--suppress-common-lines', '-p --show-c-function', '-t --expand-tabs', '-T --initial-tab', '--suppress-blank-empty', '-l --paginate'),
    ...flags('--no-dereference', '-N --new-file', '--unidirectional-new-file', '--ignore-file-name-case', '--no-ignore-file-name-case'),
    ...flags('-i --ignore-case', '-E --ignore-tab-expansion', '-Z --ignore-trailing-space', '-b --ignore-space-change', '-w --ignore-all-space'),
    ...flags('-B --ignore-blank-lines', '-a --text', '--strip-trailing-cr', '-d --minimal', '--speed-large-files', '-v --version', '--help'),
    ...valued('-C', '-U', '-W --width', '-F --show-function-line', '-L --label', '--tabsize', '-x --exclude', '-X --exclude-from'),
    ...valued('-S --starting-file', '-I --ignore-matching-lines', '-D --ifdef', '--line-format', '--horizon-lines'),
    ...valued('--old-line-format', '--new-line-format', '--unchanged-line-format', '--old-group-format', '--new-group-format'),
    ...valued('--changed-group-format', '--unchanged-group-format', '--palette'),
    ...optional('--context', '--unified', '--color'),
    refuse('follows-links', '-r --recursive', { unless: ['--no-dereference'] }),
  ],
  usage: { operands: ['notes.txt', 'src/a.ts'] },
};
