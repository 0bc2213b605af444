import type { SyntaxNode } from './bash-parser.js';
import type { CommandVerdict, PathConfinement, SimpleCommand } from './command-verdict.js';
import type { ShellConstruct, ShellPolicy } from './shell-policy.js';
import type { AnalysisState } from './analysis/statement-visitor.js';
import { visitStatement } from './analysis/statement-visitors.js';
import { parseDivergence } from './parse-parity.js';
import { MAX_GLOB_ENTRIES } from './glob-expansion.js';

export type { CommandVerdict, PathConfinement, SimpleCommand } from './command-verdict.js';
export { judgeCommand } from './judge-command.js';

/**
 * Judges a parsed command line. Accepted: simple commands joined by `&&`, `||`, `;`, `|` and
 * newlines. Refused unless the policy permits them: redirections, variable expansion, globs.
 * Always refused: command and process substitution, subshells, groups, functions, loops and
 * conditionals, heredocs, environment assignments, background `&`, brace and tilde expansion, and
 * any parse error. Globs are expanded here against the workspace, and permitted variables from
 * `variables`, so each simple command is judged (`judgeCommand`) on the words it will receive.
 * Each statement kind has its visitor in `STATEMENT_VISITORS`.
 */
export function analyzeCommand(
  root: SyntaxNode,
  policy: ShellPolicy,
  confinement: PathConfinement,
  variables: ReadonlyMap<string, string> = new Map(),
): CommandVerdict {
  const cwds = [confinement.cwd ?? confinement.root];
  const confine: PathConfinement = {
    root: confinement.root,
    check: (value) => {
      for (const cwd of cwds) {
        const refused = confinement.check(value, cwd);
        if (refused) return refused;
      }
      return undefined;
    },
    checkTree: (value) => {
      for (const cwd of cwds) {
        const refused = confinement.checkTree?.(value, cwd);
        if (refused) return refused;
      }
      return undefined;
    },
    checkHidden: (value) => {
      for (const cwd of cwds) {
        const refused = confinement.checkHidden?.(value, cwd);
        if (refused) return refused;
      }
      return undefined;
    },
  };
  if (root.hasError)
    return {
      ok: false,
      reason:
        'the command does not parse for judging (the bash grammar the judge reads it with finds unbalanced quotes or brackets, an operator without a command, or a construct it reads otherwise than bash); fix or simplify its syntax',
    };
  const divergence = parseDivergence(root);
  if (divergence) return { ok: false, reason: divergence };
  const permit = new Set<ShellConstruct>(policy.permit ?? []);
  const commands: SimpleCommand[] = [];
  const assignments: Array<[string, string]> = [];
  const out: string[] = [];
  const state: AnalysisState = {
    policy,
    permit,
    confinement,
    confine,
    cwds,
    commands,
    assignments,
    out,
    wordContext: { permit, variables: new Map(variables) },
    literalOnly: { permit: new Set(), variables: new Map() },
    maxCommands: policy.maxCommands ?? 16,
    globBudget: { entries: MAX_GLOB_ENTRIES },
    visit: (node) => visitStatement(node, state),
  };
  const problem = state.visit(root);
  if (problem) return { ok: false, reason: problem };
  if (commands.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, commands, script: out.join(''), assignments, cwds: [...new Set(cwds)] };
}
