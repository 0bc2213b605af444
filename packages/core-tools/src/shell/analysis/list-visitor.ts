import type { StatementVisitor } from './statement-visitor.js';

/** Operators that join simple commands and never run anything themselves (`;;` ends a case item: a syntax error here). */
const JOINERS = new Set(['&&', '||', ';', '|', '\n']);

/**
 * Statements joined by `&&`, `||`, `;`, `|` and newlines; any other operator (`&`, `|&`) is refused.
 * @example `npm test && git status`, `git log --oneline | head -5`, two commands on two lines
 */
export const listVisitor: StatementVisitor = {
  types: ['program', 'list', 'pipeline'],
  visit(node, state) {
    let needsSeparator = false;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (child.type === '&') return 'running a command in the background with & is not allowed; use background: true instead';
        if (child.type === '|&') return "the |& operator is not allowed; use '2>&1 |'";
        if (!JOINERS.has(child.type)) return `the operator '${child.type}' is not allowed`;
        state.out.push(child.type === '\n' ? '\n' : ` ${child.type} `);
        needsSeparator = false;
        continue;
      }
      if (child.type === 'comment') continue;
      // Statements on separate lines have no operator token between them.
      if (needsSeparator) state.out.push('\n');
      const problem = state.visit(child);
      if (problem) return problem;
      needsSeparator = true;
    }
    return undefined;
  },
};
