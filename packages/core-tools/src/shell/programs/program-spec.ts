/**
 * Why a program, or one of its options, is refused. Each class has one wording (`describeRefusal`),
 * so every program says the same thing for the same danger.
 */
export const REFUSAL_CLASSES = [
  'follows-links',
  'writes-files',
  'deletes-files',
  'runs-programs',
  'builds-commands',
  'reads-name-list',
  'makes-names',
  'sets-clock',
  'loose-mode',
  'sets-variables',
  'sets-environment',
  'drops-environment',
  'moves-elsewhere',
  'chooses-repository',
  'changes-repository',
  'not-printing',
  'unlisted-option',
  'never',
  'reruns-through-shell',
  'runs-before-config-check',
  'makes-links-beside',
  'makes-hard-links',
] as const;

export type RefusalClass = (typeof REFUSAL_CLASSES)[number];

/** A refusal as data: what was refused and why; `describeRefusal` words it. */
export interface Refusal {
  program: string;
  class: RefusalClass;
  /** The option as the program names it (`-L`, `--compress-program`). */
  option?: string;
  /** The word as written, when it is not the option itself (`-laL`, `--compress-prog`). */
  written?: string;
  /** What to do instead, for `unlisted-option` (the program's `plainUse`). */
  hint?: string;
  /** For `runs-before-config-check`: the program whose configuration is checked (git); for `makes-links-beside`: another program of the line. */
  guarded?: string;
}

/**
 * One option as the program parses it.
 * @example `{ names: ['-L', '--dereference'], refused: 'follows-links' }`
 * @example `{ names: ['-t', '--target-directory'], value: 'required' }`
 */
export interface OptionSpec {
  /**
   * Its spellings: `-L` is a short option (also inside a cluster, `-laL`); `--dereference` a long
   * option (also by any prefix, `--deref`, and with `=value`); `-exec` a whole word, matched exactly
   * (find's primaries, and the word `-` where a program reads it as an option).
   */
  readonly names: readonly string[];
  /**
   * `required`: the rest of the cluster, `=value` or the next word; `optional`: only the rest of the
   * cluster or `=value` (`date -Iseconds`, `cp --backup=numbered`); absent: no value.
   */
  readonly value?: 'required' | 'optional';
  /** Why the option is refused; absent when it is allowed. */
  readonly refused?: RefusalClass;
  /** For a refused option: options that make it safe when given too (`diff -r` with `--no-dereference`). */
  readonly unless?: readonly string[];
  /** For a tree copier: the option makes it copy whole trees (`cp -r`). */
  readonly copiesTrees?: true;
  /** The option makes the program copy symbolic links as links, or make them (`cp -P`, `cp -r`, `cp -s`). */
  readonly makesLinks?: true;
  /**
   * For a tree reader that reads trees only when told (`treeReader.trees: 'with-option'`): the
   * option makes it read them (`grep -r`); a string: only with that value, or an abbreviation of it
   * as argmatch takes one (`grep -d recurse`, `--directories=rec`).
   */
  readonly readsTrees?: true | string;
  /** For a tree reader whose first operand is a pattern: the option gives the pattern instead (`grep -e x`), or says there is none (`rg --files`). */
  readonly replacesPattern?: true;
  /** Its value is read as a tree, like an operand (`diff --from-file=DIR`). */
  readonly treeValue?: true;
}

/**
 * How a program reads its words:
 * - `getopt`: GNU getopt_long — short options in clusters (`-laL`) with glued values (`-oFILE`), long
 *   options by any unambiguous prefix with `=value` or the next word, options anywhere until `--`.
 * - `builtin`: a bash builtin — short options in clusters, only before the first operand.
 * - `words`: whole words matched exactly, anywhere, `--` included (find's expression).
 * - `listed`: only the spellings listed here are accepted (`-s KILL`, and with `gluedValues` also
 *   `-sKILL` and `--signal=KILL`); every other option is refused.
 */
export type OptionSyntax = 'getopt' | 'builtin' | 'words' | 'listed';

/**
 * What a program does with files, for the rules that depend on it:
 * - `reader`: never writes files with the options the judge lets through (may run before git).
 * - `plain`: may write the files it names (`mkdir`, `touch`, `uniq IN OUT`), or run code (`node`).
 * - `tree-copier`: copies whole trees with its `copiesTrees` options; each source is checked for
 *   protected paths the copy would recreate.
 * - `wrapper`: runs the command that follows its own options; it is judged by that command.
 */
export type ProgramRole = 'reader' | 'plain' | 'tree-copier' | 'wrapper';

/** Everything Toolwright knows about one program; the lists the judge uses are derived from these. */
export interface ProgramSpec {
  readonly name: string;
  readonly role: ProgramRole;
  readonly syntax: OptionSyntax;
  /** Its options: the allowed ones (so values and prefixes are read right) and the refused ones. */
  readonly options: readonly OptionSpec[];
  /** Options only a subcommand has, by subcommand (the first operand): `git grep -O`. */
  readonly subcommands?: Readonly<Record<string, readonly OptionSpec[]>>;
  /**
   * It reads the directories it is given with everything under them, so the shell judge refuses a
   * directory that holds a hidden path (see `treeReads`):
   * - `trees`: `always` (rg, du, tree; diff, which reads a directory's files even without `-r`), or
   *   `with-option`: only with an option whose `readsTrees` says so (grep, ls).
   * - `cwd`: given no path, it reads the working directory.
   * - `pattern`: its first operand is a pattern, not a path, unless a `replacesPattern` option is given.
   */
  readonly treeReader?: { readonly trees: 'always' | 'with-option'; readonly cwd?: true; readonly pattern?: true };
  /** Refused whatever the allowlist says. */
  readonly refused?: 'never' | 'builds-commands' | 'reruns-through-shell';
  /** In the default allowlist: the whole program (`true`), or only these first words (`git status`). */
  readonly defaultAllow?: true | readonly string[];
  /**
   * It obeys configuration the workspace holds, read before the line runs by the named guard
   * (`git`: `gitConfigGuard`); so nothing that may write files may run before it in the same line.
   */
  readonly configGuard?: 'git';
  /** For `listed` syntax: values may be glued to a short name (`-sKILL`) or follow `=` (`--signal=KILL`). */
  readonly gluedValues?: true;
  /** A wrapper: operands it takes before the command it runs (timeout's DURATION). */
  readonly leadingOperands?: number;
  /** `-N` (a dash and digits) is an option (nice's adjustment). */
  readonly numericOption?: true;
  /**
   * A short option's value is always the next word, and the cluster goes on after it (tree's own parser: `-Lo 1 out`
   * is `-L 1 -o out`), where getopt would read the rest of the cluster as the value (`-Lo` is `-L o`).
   */
  readonly valuesFromNextWord?: true;
  /** Words of the form NAME=value, anywhere after it, are refused (env would set them). */
  readonly refusesAssignments?: true;
  /** For `listed` syntax: what to say about an option that is not listed. */
  readonly plainUse?: string;
  /** Rules the option grammar cannot state (git's words before the subcommand, sed's scripts). */
  readonly judge?: (args: readonly string[]) => Refusal | undefined;
  /**
   * An argument list the program accepts, split where options may go: `lead` (words that come
   * first: git's subcommand, sed's `-n`), other `options`, then `operands`. The generated tests place each option spelling among them.
   */
  readonly usage: { readonly lead?: readonly string[]; readonly options?: readonly string[]; readonly operands: readonly string[] };
}

/** Allowed options without a value, one per string of space-separated names: `flags('-a --all', '-l')`. */
export function flags(...options: string[]): OptionSpec[] {
  return options.map((names) => ({ names: names.split(' ') }));
}

/** Allowed options that take a value: `valued('-I --ignore', '--block-size')`. */
export function valued(...options: string[]): OptionSpec[] {
  return options.map((names) => ({ names: names.split(' '), value: 'required' as const }));
}

/** Allowed options whose value may only be glued or follow `=`: `optional('--color')`. */
export function optional(...options: string[]): OptionSpec[] {
  return options.map((names) => ({ names: names.split(' '), value: 'optional' as const }));
}

/** A refused option: `refuse('follows-links', '-L --dereference')`. */
export function refuse(refused: RefusalClass, names: string, more: Omit<OptionSpec, 'names' | 'refused'> = {}): OptionSpec {
  return { names: names.split(' '), refused, ...more };
}

/** Programs refused whatever the allowlist says, one spec each. */
export function neverAllowed(names: readonly string[], role: ProgramRole = 'plain'): ProgramSpec[] {
  return names.map((name) => ({ name, role, syntax: 'words', options: [], refused: 'never', usage: { operands: [] } }));
}
