import { REFUSED_PROGRAMS } from '../refused-programs.js';
import { quoteWord } from '../shell-word.js';
import type { AnalysisState, StatementVisitor } from './statement-visitor.js';
import { recordAssignment } from './word-expansion.js';

/** The assignments recorded since `first`, as the script writes them: `NAME='value'`. */
function renderedSince(first: number, state: AnalysisState): string[] {
  return state.assignments.slice(first).map(([name, value]) => `${name}=${quoteWord(value)}`);
}

/**
 * `export NAME=value ...`, with the `assignment` permit; other declarations (`declare`, `local`,
 * `readonly`, `typeset`) are refused.
 * @example `export MODE=fast`
 */
export const exportVisitor: StatementVisitor = {
  types: ['declaration_command'],
  visit(node, state) {
    const keyword = node.child(0)?.type;
    if (keyword !== 'export' || !state.permit.has('assignment')) {
      const reason = REFUSED_PROGRAMS.get(keyword ?? 'declare');
      return `'${keyword ?? 'declare'}' is not allowed${reason ? `: it ${reason}` : ''}`;
    }
    const children = node.namedChildren.filter((c) => c !== null);
    if (children.length === 0) return 'export needs NAME=value';
    const first = state.assignments.length;
    for (const child of children) {
      if (child.type !== 'variable_assignment') return `export takes NAME=value, not '${child.text}'`;
      const problem = recordAssignment(child, state);
      if (problem) return problem;
    }
    const rendered = renderedSince(first, state);
    state.commands.push({ argv: ['export', ...rendered], program: 'export', text: node.text, cwd: state.cwds[state.cwds.length - 1]! });
    state.out.push(`export ${rendered.join(' ')}`);
    return undefined;
  },
};

/**
 * Shell variables set on their own, with the `assignment` permit (`judgeAssignment` names the
 * variables that can never be set).
 * @example `MODE=fast`, `A=1 B=2`
 */
export const assignmentVisitor: StatementVisitor = {
  types: ['variable_assignment', 'variable_assignments'],
  visit(node, state) {
    if (!state.permit.has('assignment')) return `setting shell variables ('${node.text}') is not allowed`;
    const list = node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((c) => c !== null);
    const first = state.assignments.length;
    for (const child of list) {
      const problem = recordAssignment(child, state);
      if (problem) return problem;
    }
    const rendered = renderedSince(first, state);
    state.commands.push({ argv: rendered, program: 'assignment', text: node.text, cwd: state.cwds[state.cwds.length - 1]! });
    state.out.push(rendered.join(' '));
    return undefined;
  },
};
