import type { SimpleCommand } from './command-verdict.js';
import { CONTENT_FREE_OPTIONS, isContentFree } from './git-content-free-options.js';

/**
 * Where a policy hides paths (`deny *(secrets/**)`), git may still print them: its object store keeps
 * every version of every tracked file, and neither the judge's path checks nor the sandbox's empty
 * mounts reach inside it (`git show HEAD:secrets/key`, `git log -p`, `git log -S KEY`, `git diff`,
 * `git grep`, `git cat-file`). So with hidden paths git runs only subcommands that show no file
 * content, with options that show none and search none (`CONTENT_FREE_OPTIONS`; after `--` too, where
 * git may read them as options). Undefined when the line may run; else why not.
 * @example gitHistoryProblem([{ program: 'git', argv: ['git', 'log', '-S', 'KEY'], ... }], ['secrets/**'])
 */
export function gitHistoryProblem(commands: readonly SimpleCommand[], hiddenPatterns: readonly string[]): string | undefined {
  if (hiddenPatterns.length === 0) return undefined;
  for (const command of commands) {
    if (command.program !== 'git') continue;
    const at = command.argv.findIndex((word) => word === 'git' || word.endsWith('/git'));
    const args = command.argv.slice(at + 1);
    const index = args.findIndex((word) => !word.startsWith('-'));
    const subcommand = index === -1 ? undefined : args[index]!;
    const shown = hiddenPatterns.slice(0, 3).join(', ');
    const why = `git reads the repository's history, which may hold files a policy rule hides (${shown}); while paths are hidden, only git ${Object.keys(CONTENT_FREE_OPTIONS).join(', ')} run, without options that show or search file content (such as log -p, -S, -G, -L)`;
    const options = subcommand === undefined || !Object.hasOwn(CONTENT_FREE_OPTIONS, subcommand) ? undefined : CONTENT_FREE_OPTIONS[subcommand]!;
    if (options === undefined) return `git ${subcommand ?? ''} is refused: ${why}`.replace('git  is', 'git is');
    if (options === 'any') continue;
    // Every word that looks like an option, after `--` too: git takes `--` as the value of an option before it
    // (`log --decorate-refs -- -p`, `ls-files -x -- -s`) and then reads the words after it as options.
    const refused = args.slice(index + 1).find((word) => word !== '--' && /^-./.test(word) && !isContentFree(options, word));
    if (refused !== undefined) return `git ${subcommand} ${refused} is refused: ${why}`;
  }
  return undefined;
}
