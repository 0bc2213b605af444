import { describe, expect, it } from 'vitest';
import { ruleNamesProtectedPath } from './names-protected-path.js';

describe(ruleNamesProtectedPath, () => {
  it.for([
    ['.git/**', '.git/config', true],
    ['.git/**', '.git/hooks/pre-commit', false],
    ['.git/hooks/**', '.git/hooks/pre-commit', true],
    ['sub/**', 'sub/.git/config', false],
    ['sub/.git/*', 'sub/.git/config', true],
    ['.git/hooks/*', '.git/hooks/pre-commit', true],
    ['.git/hooks/*', '.git/config', false],
    ['.git/config', '.git/config', true],
    ['./.git/config', '.git/config', true],
    ['private:/.git/**', '.git/config', true],
    ['.env', '.env', true],
    ['.git', '.git/config', false],
    ['.git/ho*', '.git/hooks/pre-commit', false],
    ['.git/hooks/pre-*', '.git/hooks/pre-commit', true],
    ['**/.git/config', '.git/config', true],
    ['cp * .git/config', '.git/config', true],
    ['cp * ".env"', '.env', true],
    [undefined, '.git/config', false],
    ['**', '.git/config', false],
    ['*', '.env', false],
    ['.g*', '.git/config', false],
    ['.env*', '.env', false],
    ['{.git,src}/**', '.git/config', false],
    ['src/**', '.git/config', false],
    ['src/../.git/**', '.git/config', false],
    ['cp * .git/config2', '.git/config', false],
    ['cp * x.env', '.env', false],
    ['.envoy/*', '.env', false],
  ] as const)('pattern %s names %s: %s', ([pattern, path, expected]) => {
    expect(ruleNamesProtectedPath(pattern === undefined ? {} : { pattern }, path)).toBe(expected);
  });
});
