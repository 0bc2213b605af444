import { SourceError } from '../source-error.js';

/**
 * The bash line that replaces the shell with the program: every word single-quoted (a `'` inside written `'\''`), so
 * nothing in it is expanded, split or globbed, and `--` so that a program named `-x` is not read as an option.
 * @example execLine(['python3', "it's.py"]) // exec -- 'python3' 'it'\''s.py'
 */
export function execLine(argv: readonly string[]): string {
  if (argv.some((word) => word.includes('\0')))
    throw new SourceError('invalid_config', 'the subprocess command holds a NUL character, which no program argument can');
  return `exec -- ${argv.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ')}`;
}
