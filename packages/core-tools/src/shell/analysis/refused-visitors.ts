import type { StatementVisitor } from './statement-visitor.js';

/** A statement kind that is always refused, with the reason the model reads. */
function refused(types: readonly string[], reason: string): StatementVisitor {
  return { types, visit: () => reason };
}

/**
 * Statements that are never judged, only refused: each could run code the analysis cannot see
 * (a subshell, a function, a loop) or change how later words are read.
 * @example `! grep x`, `(cd src && ls)`, `{ ls; }`, `f() { ls; }`, `for f in *; do cat $f; done`, `cat <<EOF`
 */
export const REFUSED_VISITORS: readonly StatementVisitor[] = [
  refused(['negated_command'], "negation with '!' is not allowed"),
  refused(['subshell'], 'subshells ( ... ) are not allowed; run the commands directly'),
  {
    types: ['compound_statement'],
    visit: (node) => (node.child(0)?.type === '((' ? 'arithmetic commands ((...)) are not allowed' : 'command groups { ...; } are not allowed'),
  },
  { types: ['test_command'], visit: (node) => `conditional expressions ${node.child(0)?.type === '[' ? '[ ... ]' : '[[ ... ]]'} are not allowed` },
  refused(['function_definition'], 'defining shell functions is not allowed'),
  refused(
    ['for_statement', 'c_style_for_statement', 'while_statement', 'if_statement', 'case_statement'],
    'loops and conditionals are not allowed; run one command per step',
  ),
  refused(['heredoc_redirect'], 'here-documents are not allowed'),
];

/**
 * A comment runs nothing.
 * @example `ls # list the files`
 */
export const commentVisitor: StatementVisitor = { types: ['comment'], visit: () => undefined };
