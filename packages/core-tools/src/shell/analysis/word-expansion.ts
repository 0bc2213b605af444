import type { SyntaxNode } from '../bash-parser.js';
import { expandGlob } from '../glob-expansion.js';
import { judgeAssignment } from '../judge-assignment.js';
import { expandWord, type WordContext } from '../shell-word.js';
import type { AnalysisState } from './statement-visitor.js';

/** The words a word node becomes: one, or a glob's matches (expanded from the latest directory). */
export function wordsOf(
  node: SyntaxNode,
  context: WordContext,
  state: AnalysisState,
): { ok: true; words: string[]; expanded: boolean } | { ok: false; reason: string } {
  const word = expandWord(node, context);
  if (!word.ok) return word;
  if (word.pattern === undefined) return { ok: true, words: [word.value], expanded: word.fromVariable };
  const cwd = state.cwds[state.cwds.length - 1]!;
  const globbed = expandGlob(word.pattern, word.value, cwd, (dir) => state.confinement.check(dir, cwd), state.globBudget);
  return globbed.ok ? { ok: true, words: globbed.words, expanded: true } : globbed;
}

/** Judges `NAME=value` (a literal value) and records it, so later words expand it; returns why it is refused. */
export function recordAssignment(node: SyntaxNode, state: AnalysisState): string | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  if (node.text.includes('+=')) return `appending to variables ('${node.text}') is not allowed`;
  const value = valueNode ? expandWord(valueNode, state.literalOnly) : { ok: true as const, value: '' };
  if (!value.ok) return value.reason;
  const problem = judgeAssignment(name, value.value);
  if (problem) return problem;
  state.assignments.push([name, value.value]);
  state.wordContext.variables.set(name, value.value);
  return undefined;
}
