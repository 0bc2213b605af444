import path from 'node:path';
import { judgeCommand } from '../judge-command.js';
import { judgeRedirect } from '../judge-redirect.js';
import { quoteWord } from '../shell-word.js';
import type { StatementVisitor } from './statement-visitor.js';
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
    for (const child of node.namedChildren) {
      if (!child) continue;
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
    if (judged.program === 'cd') {
      const targets = argv.slice(1).filter((w) => w !== '--' && w !== '-P' && w !== '-L');
      if (targets.length !== 1 || targets[0] === '-') return "cd needs exactly one directory inside the workspace ('cd' alone and 'cd -' are not allowed)";
      const refused = confine.check(targets[0]!, confine.root);
      if (refused) return `cd to '${targets[0]}' is refused: ${refused}`;
      for (const cwd of [...cwds]) cwds.push(state.confinement.locate?.(targets[0]!, cwd) ?? path.resolve(cwd, targets[0]!));
      if (cwds.length > 64) return 'too many cd commands in one command line; split it into several calls';
    }
    state.commands.push({ argv, program: judged.program, text: node.text });
    state.out.push([...argv.map(quoteWord), ...redirects].join(' '));
    return undefined;
  },
};
