/** The options of one git subcommand that show no file content, nor search it. */
export interface ContentFreeOptions {
  /** Long options, allowed as `--name` and as `--name=value` (each value they take is harmless). */
  readonly long: string;
  /** Short options that take no value, alone or in a cluster (`-sb`). */
  readonly short: string;
  /** Short options with a value, as whole words (`-n5`, `-uno`). */
  readonly words?: readonly RegExp[];
}

/** Options of `git log` and `git shortlog` that choose which commits, and in what order. */
const WHICH_COMMITS = [
  '--max-count --skip --since --after --since-as-filter --until --before --max-age --min-age --author --committer --grep-reflog --grep',
  '--all-match --invert-grep --regexp-ignore-case --basic-regexp --extended-regexp --fixed-strings --perl-regexp --remove-empty --merges',
  '--no-merges --min-parents --max-parents --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not --all',
  '--branches --tags --remotes --glob --exclude --reflog --single-worktree --ignore-missing --bisect --left-only --right-only',
  '--walk-reflogs --merge --boundary --follow --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges',
  '--ancestry-path --date-order --author-date-order --topo-order --reverse --no-walk --do-walk',
];

/**
 * The subcommands that run while paths are hidden, with the options each may be given; `any`
 * where none shows file content (`git branch` is limited to listing by the git spec). An allow-list: an option missing here is refused, and so is an
 * abbreviation (`--pickaxe-r`) or a cluster (`-sp`) of listed ones that is not listed itself.
 *
 * `git log` limits, orders and formats commits, and may name the paths each changed with their
 * line counts (`--stat`, `--name-status`), as `git status` and `git ls-files` name them. It may not
 * show patches (`-p`, `--cc`, `-m`, `--word-diff`, `-L`), search content (`-S`, `-G`,
 * `--pickaxe-regex`, `--find-object`, `-I`), print changed lines (`--check`) or blob ids (`--raw`,
 * which test a guess at a whole file, as `--find-object` does). `git status -v` shows the staged and
 * unstaged changes; `git ls-files -s` (and `--format`) the blob ids.
 */
export const CONTENT_FREE_OPTIONS: Readonly<Record<string, ContentFreeOptions | 'any'>> = {
  log: {
    long: [
      ...WHICH_COMMITS,
      // How each is shown.
      '--pretty --format --abbrev-commit --no-abbrev-commit --oneline --encoding --expand-tabs --no-expand-tabs --no-notes --relative-date',
      '--date --parents --children --left-right --graph --show-linear-break --decorate --no-decorate --decorate-refs --decorate-refs-exclude',
      '--clear-decorations --source --mailmap --no-mailmap --use-mailmap --no-use-mailmap --log-size --abbrev --no-abbrev --color --no-color',
      // The paths each changed, by name and line count.
      '--no-patch --stat --stat-width --stat-name-width --stat-graph-width --stat-count --shortstat --numstat --compact-summary --summary',
      '--name-only --name-status --dirstat --dirstat-by-file --cumulative --diff-filter --no-renames --find-renames --no-ext-diff --no-textconv',
    ].join(' '),
    short: 'iEFPgsz',
    words: [/^-\d+$/, /^-n\d*$/, /^-M(?:\d+%?)?$/],
  },
  status: {
    long: '--short --branch --show-stash --porcelain --long --untracked-files --ignore-submodules --ignored --column --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames',
    short: 'sbz',
    words: [/^-u(?:no|normal|all)?$/],
  },
  'ls-files': {
    long: '--cached --deleted --modified --others --ignored --directory --no-empty-directory --killed --deduplicate --exclude --exclude-from --exclude-per-directory --exclude-standard --error-unmatch --full-name --recurse-submodules --sparse',
    short: 'cdmoiktvfz',
    words: [/^-[xX]$/],
  },
  shortlog: {
    long: [...WHICH_COMMITS, '--numbered --summary --email --format --group --committer --no-mailmap --mailmap'].join(' '),
    short: 'nsecgiEFP',
    words: [/^-w[\d,]*$/, /^-\d+$/],
  },
  branch: 'any',
  'rev-parse': 'any',
  describe: 'any',
};

/** Whether `word`, an option of a subcommand, is one of `options`. */
export function isContentFree(options: ContentFreeOptions, word: string): boolean {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    return options.long.split(' ').includes(eq === -1 ? word : word.slice(0, eq));
  }
  if ([...word.slice(1)].every((letter) => options.short.includes(letter))) return true;
  return options.words?.some((form) => form.test(word)) ?? false;
}
