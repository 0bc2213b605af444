import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTENT_FREE_OPTIONS } from './git-content-free-options.js';
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

  // Found by a red-team pass: git takes `--` as the value of the option before it (`log --decorate-refs -- -p`,
  // `ls-files -x -- -s`) and reads the words after it as options, which printed a hidden file's content.
  it('judges the words after -- as options too, whatever option comes before it (property)', () => {
    const subcommands = Object.entries(CONTENT_FREE_OPTIONS).filter(([, options]) => options !== 'any');
    fc.assert(
      fc.property(
        fc.constantFrom(...subcommands.map(([name]) => name)),
        fc.constantFrom('--decorate-refs', '--decorate-refs-exclude', '-x', '--exclude', '--src-prefix', '-L', '--format', '--zz'),
        fc.constantFrom('-p', '--patch', '-S', '-s', '--raw', '-G', '-U3', '--output=x', '--ext-diff', '--textconv'),
        (subcommand, before, after) => {
          const problem = gitHistoryProblem(git(subcommand, before, '--', after, '-1'), ['secrets/**']);
          fc.pre(gitHistoryProblem(git(subcommand, after), ['secrets/**']) !== undefined);
          expect(problem, `git ${subcommand} ${before} -- ${after}`).toBeDefined();
        },
      ),
    );
  });

  it.for([
    ['log', '--decorate-refs', '--', '-p', '-1'],
    ['log', '--decorate-refs-exclude', '--', '-p'],
    ['log', '--decorate-refs', '--', '-1', '--raw'],
    ['ls-files', '-x', '--', '-s'],
    ['ls-files', '--exclude-per-directory', '--', '-s'],
    // A path that looks like an option is read as one too: which option takes the -- as its value is not known.
    ['log', '--oneline', '--', '-p'],
  ])('refuses git %j where a path is hidden: the -- is an option value and the option after it shows content', (argv) => {
    expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toBeDefined();
  });

  it('still runs git log -- with plain paths after it', () => {
    expect(gitHistoryProblem(git('log', '--oneline', '--', 'src', 'README.md'), ['secrets/**'])).toBeUndefined();
  });

  it.for([['status'], ['status', '--short'], ['log', '--oneline', '-5'], ['log', '--stat'], ['branch', '-a'], ['ls-files'], ['rev-parse', 'HEAD']])(
    'runs git %s, which shows no file content',
    (argv) => {
      expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toBeUndefined();
    },
  );

  // Each option that shows or searches file content (or a blob id, which tests a guess at a whole
  // file), in each way git reads it: a value glued on or in the next word, a long option with `=`,
  // abbreviated, or in a cluster with an allowed letter; each before and after other words.
  const REFUSED: Record<string, string[][]> = {
    log: [
      ...[
        ['-S', 'KEY'],
        ['-G', 'K.Y'],
        ['-I', 'KEY'],
        ['-L', '1,5:secrets/prod.key'],
        ['-L', ':main:secrets/prod.key'],
        ['-O', 'order'],
        ['-U', '3'],
      ].flatMap(([name, value]) => [[`${name}${value}`], [name!, value!]]),
      ...['--pickaxe-regex', '--pickaxe-all', '--find-object', '--ignore-matching-lines', '--unified', '--word-diff', '--color-words']
        .concat(['--word-diff-regex', '--diff-merges', '--output', '--anchored', '--stdin', '--line-prefix'])
        .flatMap((name) => [[name], [`${name}=x`], [name, 'x']]),
      ...['-p', '-u', '--patch', '--patch-with-stat', '--patch-with-raw', '--cc', '-c', '-m', '--remerge-diff', '--combined-all-paths'].map((w) => [w]),
      ...['--full-diff', '-W', '--function-context', '--binary', '-a', '--text', '--textconv', '--ext-diff', '--check', '--raw', '--full-index'].map((w) => [
        w,
      ]),
      ...['-t', '--show-signature', '--notes', '--show-notes', '--end-of-options', '-G.', '-Sx', '-S.'].map((w) => [w]),
      ...['--pickaxe-r', '--pickaxe', '--pat', '--patch-with-s', '--find-obj=x', '--word-d', '--stat-with-patch', '--stats'].map((w) => [w]),
      ...['-sp', '-ps', '-zS', '-gp', '-sGx', '-iS', '-5p', '-n5p'].map((w) => [w]),
    ],
    status: [['-v'], ['--verbose'], ['-vv'], ['-sv'], ['-bv'], ['--verb'], ['-uv']],
    shortlog: [['-S', 'KEY'], ['-SKEY'], ['-G.'], ['-p'], ['--pickaxe-regex'], ['-sp']],
    'ls-files': [['-s'], ['--stage'], ['-u'], ['--unmerged'], ['--format=%(objectname)'], ['--format', '%(objectname)'], ['--debug'], ['--eol'], ['-cs']],
  };
  const ALLOWED_BEFORE: Record<string, string> = { log: '--oneline', shortlog: '-sn', status: '-z', 'ls-files': '-z' };
  const refusedCases = Object.entries(REFUSED).flatMap(([subcommand, spellings]) =>
    spellings.flatMap((words) =>
      [
        [subcommand, ...words],
        [subcommand, ALLOWED_BEFORE[subcommand]!, ...words, 'HEAD'],
        [subcommand, 'HEAD', ...words],
        ['--no-pager', subcommand, ...words, '--', 'src'],
      ].map((argv) => ({ title: argv.join(' '), argv, reason: `git ${subcommand} ${words[0]} is refused: git reads the repository's history` })),
    ),
  );
  it.for(refusedCases)('refuses git $title where a path is hidden: it shows or searches file content', ({ argv, reason }) => {
    const problem = gitHistoryProblem(git(...argv), ['secrets/**']);
    expect(problem?.startsWith(reason), problem).toBe(true);
  });

  // Every listed option, in each of its forms: long ones bare and with `=value`, short ones alone and in a cluster.
  const allowedCases = Object.entries(CONTENT_FREE_OPTIONS).flatMap(([subcommand, options]) =>
    options === 'any'
      ? []
      : [
          ...options.long.split(' ').flatMap((name) => [
            [subcommand, name],
            [subcommand, `${name}=x`, 'HEAD'],
          ]),
          ...[...options.short].map((letter) => [subcommand, `-${letter}`]),
          [subcommand, `-${options.short}`, '--', 'src'],
        ],
  );
  it.for(allowedCases)('runs git %j: the option shows no file content', (argv) => {
    expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toBeUndefined();
  });

  it.for([
    ['log', '-5'],
    ['log', '-n', '5'],
    ['log', '-n5', '--oneline'],
    ['log', '--name-status', '-M50%', 'HEAD~3..HEAD'],
    ['log', '--graph', '--all', '--decorate', '--oneline'],
    ['log', '--format=%h %an %s%n%b', '--author=Bob', '--since=2.weeks'],
    ['log', '--grep', 'fix', '-i', '-E'],
    ['log', '--follow', '--stat', '--', 'src/app.ts'],
    ['status', '-sb'],
    ['status', '--porcelain=v2', '-uno'],
    ['ls-files', '-co', '--exclude-standard'],
    ['ls-files', '-x', '*.o', '--others'],
    ['shortlog', '-sn'],
    ['describe', '--tags'],
  ])('runs git %j, a common use that shows no file content', (argv) => {
    expect(gitHistoryProblem(git(...argv), ['secrets/**'])).toBeUndefined();
  });

  it('finds git behind a wrapper', () => {
    expect(gitHistoryProblem([{ program: 'git', argv: ['timeout', '5', 'git', 'show'], text: '', cwd: '/ws' }], ['**/*.key'])).toMatch(/^git show is refused/);
  });
});
