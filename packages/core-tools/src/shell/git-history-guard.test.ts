import { describe, expect, it } from 'vitest';
import { gitHistoryProblem } from './git-history-guard.js';

const git = (...argv: string[]) => [{ program: 'git', argv: ['git', ...argv], text: '', cwd: '/ws' }];

describe(gitHistoryProblem, () => {
  it('lets every git command run where no path is hidden', () => {
    expect(gitHistoryProblem(git('show', 'HEAD:secrets/key'), [])).toBeUndefined();
  });

  it.for([
    ['show', 'HEAD:secrets/prod.key'],
    ['show'],
    ['log', '-p'],
    ['log', '--patch'],
    ['log', '-U3'],
    ['log', '--word-diff=color'],
    ['log', '-L1,5:secrets/prod.key'],
    ['log', '--format=%B%n', '-p'],
    ['diff'],
    ['diff', 'HEAD~1'],
    ['grep', 'API_KEY', 'HEAD'],
    ['cat-file', '-p', 'HEAD:secrets/prod.key'],
    ['archive', 'HEAD'],
    ['blame', 'secrets/prod.key'],
    ['stash', 'show', '-p'],
    ['format-patch', '-1'],
    [],
  ])('refuses git %s where a path is hidden: the object store keeps what the tree hides', (argv) => {
    expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toMatch(
      /is refused: git reads the repository's history, which may hold files a policy rule hides \(secrets\/\*\*\)/,
    );
  });

  it.for([['status'], ['status', '--short'], ['log', '--oneline', '-5'], ['log', '--stat'], ['branch', '-a'], ['ls-files'], ['rev-parse', 'HEAD']])(
    'runs git %s, which shows no file content',
    (argv) => {
      expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toBeUndefined();
    },
  );

  it('finds git behind a wrapper', () => {
    expect(gitHistoryProblem([{ program: 'git', argv: ['timeout', '5', 'git', 'show'], text: '', cwd: '/ws' }], ['**/*.key'])).toMatch(/^git show is refused/);
  });
});
