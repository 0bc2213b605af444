import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/**
 * GNU grep: `-r` follows links named on the command line only; `-R` follows every link it meets.
 * `-NUM` is `--context=NUM`, so digits are flags (`-rn5`).
 */
export const grep: ProgramSpec = {
  name: 'grep',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  treeReader: { trees: 'with-option', cwd: true, pattern: true },
  options: [
    { names: ['-r', '--recursive'], readsTrees: true },
    { names: ['-d', '--directories'], value: 'required', readsTrees: 'recurse' },
    { names: ['-e', '--regexp'], value: 'required', replacesPattern: true },
    { names: ['-f', '--file'], value: 'required', replacesPattern: true },
    ...flags('-E --extended-regexp', '-F --fixed-strings', '-G --basic-regexp', '-P --perl-regexp', '-i -y --ignore-case', '--no-ignore-case'),
    ...flags('-w --word-regexp', '-x --line-regexp', '-z --null-data', '-s --no-messages', '-v --invert-match', '-V --version', '--help'),
    ...flags('-b --byte-offset', '-n --line-number', '--line-buffered', '-H --with-filename', '-h --no-filename', '-o --only-matching'),
    ...flags('-q --quiet --silent', '-a --text', '-I', '-L --files-without-match', '-l --files-with-matches', '-c --count'),
    ...flags('-T --initial-tab', '-Z --null', '--no-group-separator', '-U --binary'),
    ...flags('-0', '-1', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9'),
    ...valued('-m --max-count', '--label', '--binary-files', '-D --devices', '--include'),
    ...valued('--exclude', '--exclude-from', '--exclude-dir', '-B --before-context', '-A --after-context', '-C --context', '--group-separator'),
    ...optional('--color --colour'),
    refuse('follows-links', '-R --dereference-recursive', { readsTrees: true }),
  ],
  usage: { options: ['-n'], operands: ['TODO', 'notes.txt'] },
};

/**
 * ripgrep: `--pre` and `-z` run other programs on the files it searches (`--pre-glob` chooses which
 * files go to `--pre`, `--hostname-bin` runs a program for hyperlinks). ripgrep 14's `-d`
 * (`--max-depth`) is left out: read as a flag, the letters after it are still checked.
 */
export const rg: ProgramSpec = {
  name: 'rg',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  treeReader: { trees: 'always', cwd: true, pattern: true },
  options: [
    { names: ['-e', '--regexp'], value: 'required', replacesPattern: true },
    { names: ['-f', '--file'], value: 'required', replacesPattern: true },
    { names: ['--files'], replacesPattern: true },
    { names: ['--type-list'], replacesPattern: true },
    ...flags('-a --text', '-b --byte-offset', '-c --count', '--count-matches', '-F --fixed-strings', '-H --with-filename', '-h --help'),
    ...flags('-I --no-filename', '-i --ignore-case', '-l --files-with-matches', '--files-without-match', '-n --line-number', '-N --no-line-number'),
    ...flags('-o --only-matching', '-p --pretty', '-P --pcre2', '-q --quiet', '-s --case-sensitive', '-S --smart-case', '-U --multiline'),
    ...flags('-u --unrestricted', '-v --invert-match', '-V --version', '-w --word-regexp', '-x --line-regexp', '-0 --null', '-. --hidden'),
    ...flags('--json', '--vimgrep', '--column', '--heading', '--no-heading', '--trim', '--stats', '--passthru'),
    ...flags('--debug', '--trace', '--binary', '--block-buffered', '--line-buffered', '--crlf', '--null-data', '--mmap', '--no-mmap'),
    ...flags('--multiline-dotall', '--no-config', '--no-ignore', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-files', '--no-ignore-global'),
    ...flags('--no-ignore-messages', '--no-ignore-parent', '--no-ignore-vcs', '--no-messages', '--no-pcre2-unicode', '--no-unicode'),
    ...flags('--no-require-git', '--one-file-system', '--pcre2-version', '--include-zero', '--glob-case-insensitive', '--no-follow'),
    ...flags('--ignore-file-case-insensitive', '--auto-hybrid-regex', '--max-columns-preview', '--no-search-zip', '--no-pre'),
    ...valued('-A --after-context', '-B --before-context', '-C --context', '-E --encoding', '-g --glob'),
    ...valued('-j --threads', '-M --max-columns', '-m --max-count', '-r --replace', '-t --type', '-T --type-not', '--color', '--colors'),
    ...valued('--context-separator', '--dfa-size-limit', '--engine', '--field-context-separator', '--field-match-separator', '--iglob'),
    ...valued('--ignore-file', '--max-depth', '--max-filesize', '--path-separator', '--regex-size-limit', '--sort', '--sortr', '--type-add'),
    ...valued('--type-clear', '--hyperlink-format'),
    refuse('follows-links', '-L --follow'),
    refuse('runs-programs', '--pre', { value: 'required' }),
    refuse('runs-programs', '--pre-glob', { value: 'required' }),
    refuse('runs-programs', '--hostname-bin', { value: 'required' }),
    refuse('runs-programs', '-z --search-zip'),
  ],
  usage: { options: ['-n'], operands: ['TODO', 'notes.txt'] },
};
