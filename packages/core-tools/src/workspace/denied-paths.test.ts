import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '@toolwright/executor';
import { deniedPathMatcher } from './denied-paths.js';

const PATTERNS = ['secrets/**', 'secrets', 'config/keys/*', '**/*.key', 'deploy/prod.env', './private', '/.aws/**', 'a*/b/**', '{x,y}/z'];
const SEGMENTS = ['secrets', 'SECRETS', 'config', 'keys', 'prod.key', 'a.KEY', 'deploy', 'prod.env', 'private', '.aws', 'ab', 'b', 'x', 'z', 'src', '.git'];

describe(deniedPathMatcher, () => {
  it.for([
    ['secrets/**', 'secrets', 'secrets/**'],
    ['secrets/**', 'secrets/deep/prod.key', 'secrets/**'],
    ['secrets/**', 'src/secrets', undefined],
    ['secrets', 'secrets/prod.key', 'secrets'],
    ['secrets', 'secretsX', undefined],
    ['config/keys/*', 'config/keys/a/b', 'config/keys/*'],
    ['config/keys/*', 'config/keys', undefined],
    ['**/*.key', 'prod.key', '**/*.key'],
    ['**/*.key', 'a/b/.hidden.key', '**/*.key'],
    ['**/*.key', 'a/b/key', undefined],
    ['deploy/prod.env', 'DEPLOY/Prod.ENV', 'deploy/prod.env'],
    ['./private/', 'private/x', 'private'],
    ['/.aws/**', '.aws/credentials', '.aws/**'],
    ['**', 'anything/at/all', '**'],
    ['**', '', undefined],
    ['**', '.', undefined],
  ] as const)('%s hides %j: %s', ([pattern, relative, expected]) => {
    expect(deniedPathMatcher([pattern]).deniedBy(relative)).toBe(expected);
  });

  it('hides what a policy deny rule on file_read denies, for the path or any parent (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 }), (pattern, segments) => {
        const policy = loadPolicy({ rules: [{ deny: `file_read(path=${pattern})` }], default: 'allow' });
        const deniedByPolicy = segments.some(
          (_, i) => policy.decide({ tool: 'file_read', args: { path: segments.slice(0, i + 1).join('/') } }).effect === 'deny',
        );
        expect(deniedPathMatcher([pattern]).deniedBy(segments.join('/')) !== undefined).toBe(deniedByPolicy);
      }),
      { numRuns: 2_000 },
    );
  });

  it('mayHideBelow is false only for directories under which nothing is hidden (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PATTERNS),
        fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }),
        fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }),
        (pattern, dir, below) => {
          const denied = deniedPathMatcher([pattern]);
          if (!denied.mayHideBelow(dir.join('/'))) expect(denied.hides([...dir, ...below].join('/'))).toBeUndefined();
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('prunes directories a pattern with a literal start cannot reach', () => {
    const denied = deniedPathMatcher(['secrets/**', 'config/keys/*']);
    expect(['', 'secrets', 'secrets/a', 'config', 'CONFIG/Keys/x'].map(denied.mayHideBelow)).toEqual([true, true, true, true, true]);
    expect(['src', 'secretsX', 'config/other', 'node_modules/a'].map(denied.mayHideBelow)).toEqual([false, false, false, false]);
    expect(deniedPathMatcher(['**/*.key']).mayHideBelow('src/deep')).toBe(true);
  });

  it('normalises the patterns and drops empty ones; a trailing / is dropped, so `secrets/` hides the directory', () => {
    expect(deniedPathMatcher(['./secrets/', '/a/**', '', '.', 'secrets']).patterns).toEqual(['secrets', 'a/**']);
  });
});
