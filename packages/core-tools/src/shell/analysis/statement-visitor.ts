import type { SyntaxNode } from '../bash-parser.js';
import type { PathConfinement, SimpleCommand } from '../command-verdict.js';
import type { ShellConstruct, ShellPolicy } from '../shell-policy.js';
import type { GlobBudget } from '../glob-expansion.js';
import type { WordContext } from '../shell-word.js';

/** What judging one command line has gathered so far, shared by the statement visitors. */
export interface AnalysisState {
  readonly policy: ShellPolicy;
  readonly permit: ReadonlySet<ShellConstruct>;
  /** The caller's confinement: `check` from one directory, `locate` to follow a `cd`. */
  readonly confinement: PathConfinement;
  /** Checks a path from every directory in `cwds` (refused if any refuses it). */
  readonly confine: PathConfinement;
  /**
   * Every directory the shell may be in when a command runs: the start, and each `cd` target seen so
   * far (a `cd` may or may not have run, after `||` or a failure). Paths are judged from all; globs
   * are expanded from the latest (where the line runs when every `cd` succeeded).
   */
  readonly cwds: string[];
  /** How words expand: the permits, and the variables known so far (assignments add to them). */
  readonly wordContext: WordContext & { variables: Map<string, string> };
  /** Words taken literally: command names, assigned values, redirection targets. */
  readonly literalOnly: WordContext;
  readonly commands: SimpleCommand[];
  readonly assignments: Array<[string, string]>;
  /** The script being rebuilt from the judged words, piece by piece. */
  readonly out: string[];
  readonly maxCommands: number;
  /** What the line's globs may still look at (`MAX_GLOB_ENTRIES` for the whole line). */
  readonly globBudget: GlobBudget;
  /** Judges a nested statement through the visitor table. */
  visit(node: SyntaxNode): string | undefined;
}

/**
 * One kind of bash statement (by tree-sitter-bash node type): judges it and appends what runs to
 * `state.out`, or returns why it is refused. Visitors are looked up by type in `STATEMENT_VISITORS`;
 * a type no visitor handles is refused.
 */
export interface StatementVisitor {
  readonly types: readonly string[];
  visit(node: SyntaxNode, state: AnalysisState): string | undefined;
}
