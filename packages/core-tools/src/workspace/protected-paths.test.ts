import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { protectedPathMatcher } from './protected-paths.js';
import { WorkspacePolicy } from './workspace-policy.js';

const DEFAULTS = ['.git', '.toolwright', '.env'];

describe(protectedPathMatcher, () => {
  const isProtected = protectedPathMatcher(DEFAULTS);

  it.for([
    ['.git', true],
    ['.git/config', true],
    ['sub/.git/config', true],
    ['a/b/.git/hooks/x', true],
    ['x/.env', true],
    ['.env', true],
    ['deep/.toolwright/audit.jsonl', true],
    ['.GIT/config', true],
    ['sub/.Git', true],
    ['.gitignore', false],
    ['.github/workflows/ci.yml', false],
    ['src/x.git', false],
    ['.envrc', false],
    ['env/.env.example', false],
    ['', false],
  ] as const)('%s -> %s', ([relative, expected]) => {
    expect(isProtected(relative)).toBe(expected);
  });

  it('anchors entries that contain a slash at the root', () => {
    const anchored = protectedPathMatcher(['/build', 'config/keys', 'secrets/']);
    expect(anchored('build/out.js')).toBe(true);
    expect(anchored('src/build/out.js')).toBe(false);
    expect(anchored('config/keys/a.pem')).toBe(true);
    expect(anchored('app/config/keys/a.pem')).toBe(false);
    expect(anchored('a/secrets/x')).toBe(true); // a trailing slash alone does not anchor, as in gitignore
  });

  it('protects any path with a protected segment at any depth, in any case (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z.]{0,6}$/).filter((n) => !['.git', '.toolwright', '.env'].includes(n));
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 4 }),
        fc.constantFrom(...DEFAULTS),
        fc.array(name, { maxLength: 3 }),
        fc.boolean(),
        (before, entry, after, upper) => {
          const segment = upper ? entry.toUpperCase() : entry;
          expect(isProtected([...before, segment, ...after].join('/'))).toBe(true);
          expect(isProtected([...before, ...after].join('/'))).toBe(false);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('WorkspacePolicy marks nested protected paths', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-protected-')));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
  fs.symlinkSync(path.join(root, 'sub', '.git'), path.join(root, 'innocent'));
  const policy = new WorkspacePolicy({ root });

  it.for(['sub/.git/config', 'a/b/.git/hooks/pre-commit', 'x/.env', 'innocent/config', `${root}/sub/.git/hooks/x`])('%s', (input) => {
    expect(policy.resolve(input).protected).toBe(true);
    expect(policy.resolveLink(input).protected).toBe(true);
  });

  it('leaves ordinary paths unprotected', () => {
    expect(policy.resolve('sub/src/.gitignore').protected).toBe(false);
  });
});
