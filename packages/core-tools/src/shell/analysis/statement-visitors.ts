import type { SyntaxNode } from '../bash-parser.js';
import { assignmentVisitor, exportVisitor } from './assignment-visitors.js';
import { commandVisitor } from './command-visitor.js';
import { listVisitor } from './list-visitor.js';
import { redirectedStatementVisitor } from './redirected-statement-visitor.js';
import { commentVisitor, REFUSED_VISITORS } from './refused-visitors.js';
import type { AnalysisState, StatementVisitor } from './statement-visitor.js';

/** Every statement kind the analysis knows; each node type has one visitor, so the order is only for reading. */
export const STATEMENT_VISITORS: readonly StatementVisitor[] = [
  listVisitor,
  redirectedStatementVisitor,
  commandVisitor,
  exportVisitor,
  assignmentVisitor,
  commentVisitor,
  ...REFUSED_VISITORS,
];

const BY_TYPE = new Map(STATEMENT_VISITORS.flatMap((visitor) => visitor.types.map((type) => [type, visitor] as const)));

/** Judges one statement with its visitor; a statement kind no visitor handles is refused. */
export function visitStatement(node: SyntaxNode, state: AnalysisState): string | undefined {
  const visitor = BY_TYPE.get(node.type);
  if (!visitor) return `'${node.type.replace(/_/g, ' ')}' constructs are not allowed`;
  return visitor.visit(node, state);
}
