import { judgeRedirect } from '../judge-redirect.js';
import type { StatementVisitor } from './statement-visitor.js';

/**
 * A statement with redirections after it: the statement, then each redirection (see `judgeRedirect`).
 * @example `npm test 2>&1`, `ls > /dev/null`, `sort notes.txt > sorted.txt` (with the `redirection` permit)
 */
export const redirectedStatementVisitor: StatementVisitor = {
  types: ['redirected_statement'],
  visit(node, state) {
    const body = node.childForFieldName('body');
    if (!body) return 'a redirection without a command is not allowed';
    const problem = state.visit(body);
    if (problem) return problem;
    for (const redirect of node.childrenForFieldName('redirect')) {
      if (!redirect) continue;
      const rendered = judgeRedirect(redirect, state.permit, state.confine);
      if (!rendered.ok) return rendered.reason;
      state.out.push(` ${rendered.text}`);
    }
    return undefined;
  },
};
