import path from 'node:path';
import { judgeCommand } from '../judge-command.js';
import { judgeRedirect } from '../judge-redirect.js';
import { cdTarget } from '../judge-cd.js';
import { quoteWord, strayToken } from '../shell-word.js';
import type { SyntaxNode } from '../bash-parser.js';
import type { AnalysisState, StatementVisitor } from './statement-visitor.js';
import { wordsOf } from './word-expansion.js';

/**
 * A simple command: its words expanded (the name literally), judged as a whole (`judgeCommand`),
 * and rebuilt single-quoted; a `cd` adds the directories later commands may run in.
 * @example `git diff --stat`, `cat src/*.ts` (with the `glob` permit), `cd packages/core-tools`
 */
export const commandVisitor: StatementVisitor = {
  types: ['command'],
  visit(node, state) {
    const { confine, cwds } = state;
    if (state.commands.length >= state.maxCommands) return `the command line has more than ${state.maxCommands} commands; split it into several calls`;
    const argv: string[] = [];
    const redirects: string[] = [];
    const children = node.children.filter((c) => c !== null);
    for (const [i, child] of children.entries()) {
      if (!child.isNamed) return strayToken(child, node, children[i + 1]);
      if (child.type === 'variable_assignment') return `setting environment variables ('${child.text}') is not allowed`;
      if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
        const rendered = judgeRedirect(child, state.permit, confine);
        if (!rendered.ok) return rendered.reason;
        redirects.push(rendered.text);
        continue;
      }
      const isName = child.type === 'command_name';
      const target = isName ? child.firstNamedChild : child;
      if (!target) return 'an empty command name is not allowed';
      const expanded = wordsOf(target, isName ? state.literalOnly : state.wordContext, state);
      if (!expanded.ok) return expanded.reason;
      argv.push(...expanded.words);
    }
    if (argv.length === 0) return 'an empty command is not allowed';
    const judged = judgeCommand(argv, state.policy, confine);
    if (!judged.ok) return judged.reason;
    const cwd = cwds[cwds.length - 1]!;
    if (judged.program === 'cd') {
      const problem = followCd(argv, node, state);
      if (problem) return problem;
    }
    state.commands.push({ argv, program: judged.program, text: node.text, cwd });
    state.out.push([...argv.map(quoteWord), ...redirects].join(' '));
    return undefined;
  },
};

/**
 * Adds the directory a `cd` moves to, from every directory the shell may be in, to `state.cwds`
 * (located as the kernel resolves it: the shell runs with `-P`); returns why the `cd` is refused.
 */
function followCd(argv: string[], node: SyntaxNode, state: AnalysisState): string | undefined {
  const { confine, cwds } = state;
  if (argv[0] !== 'cd') return `cd changes the shell's directory only when written as the command itself ('cd DIR'), not through '${argv[0]}'`;
  if (inPipeline(node)) return "cd in a pipeline runs in a subshell and moves no later command; write 'cd DIR && ...'";
  const target = cdTarget(argv.slice(1));
  if (!target.ok) return target.reason;
  const refused = confine.check(target.target, confine.root);
  if (refused) return `cd to '${target.target}' is refused: ${refused}`;
  for (const cwd of [...cwds]) cwds.push(state.confinement.locate?.(target.target, cwd) ?? path.resolve(cwd, target.target));
  if (cwds.length > 64) return 'too many cd commands in one command line; split it into several calls';
  return undefined;
}

/** Whether a command is one stage of a pipeline (bash runs each stage in a subshell). */
function inPipeline(node: SyntaxNode): boolean {
  for (let parent = node.parent; parent && parent.type !== 'program' && parent.type !== 'list'; parent = parent.parent) {
    if (parent.type === 'pipeline') return true;
  }
  return false;
}
