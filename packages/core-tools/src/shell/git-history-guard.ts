import type { SimpleCommand } from './command-verdict.js';

/** Subcommands that show no file content from the repository (names, refs and commit messages only). */
const WITHOUT_CONTENT = new Set(['status', 'branch', 'log', 'ls-files', 'rev-parse', 'describe', 'shortlog']);
/** Options of `git log` that print what changed inside files. */
const PATCH_OPTIONS =
  /^(-p|-u|-U\d*|--patch.*|--unified.*|--word-diff.*|--color-words.*|-L.*|--full-diff|--cc|-c|-m|--diff-merges.*|--remerge-diff|--format.*%[Bb]?.*$)/;

/**
 * Where a policy hides paths (`deny *(secrets/**)`), git may still print them: its object store keeps
 * every version of every tracked file, and neither the judge's path checks nor the sandbox's empty
 * mounts reach inside it (`git show HEAD:secrets/key`, `git log -p`, `git diff`, `git grep`,
 * `git cat-file`). So with hidden paths git runs only subcommands that show no file content — and
 * `git log` without patches. Undefined when the line may run; else why not.
 * @example gitHistoryProblem([{ program: 'git', argv: ['git', 'log', '-p'], ... }], ['secrets/**'])
 */
export function gitHistoryProblem(commands: readonly SimpleCommand[], hiddenPatterns: readonly string[]): string | undefined {
  if (hiddenPatterns.length === 0) return undefined;
  for (const command of commands) {
    if (command.program !== 'git') continue;
    const at = command.argv.findIndex((word) => word === 'git' || word.endsWith('/git'));
    const args = command.argv.slice(at + 1);
    const subcommand = args.find((word) => !word.startsWith('-'));
    const shown = hiddenPatterns.slice(0, 3).join(', ');
    const why = `git reads the repository's history, which may hold files a policy rule hides (${shown}); while paths are hidden, only git ${[...WITHOUT_CONTENT].join(', ')} run (log without patches)`;
    if (subcommand === undefined || !WITHOUT_CONTENT.has(subcommand)) return `git ${subcommand ?? ''} is refused: ${why}`.replace('git  is', 'git is');
    const patch = subcommand === 'log' ? args.find((word) => PATCH_OPTIONS.test(word)) : undefined;
    if (patch !== undefined) return `git log ${patch} is refused: ${why}`;
  }
  return undefined;
}
