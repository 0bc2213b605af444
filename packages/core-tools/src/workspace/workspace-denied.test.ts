import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ripgrepExclusions } from '../search/ripgrep-exclusions.js';
import { hiddenPathsUnder, pathsUnder, walkWorkspace } from './tree-scan.js';
import { holdsSharedDirectory } from '@toolwright/sandbox';
import { WorkspacePolicy } from './workspace-policy.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-denied-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
for (const file of ['secrets/prod.key', 'secrets/deep/x', 'shared/secrets/s', 'src/a.ts', 'src/b.pem', 'config/keys/k']) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), 'x');
}
fs.symlinkSync('secrets/prod.key', path.join(root, 'link'));
const workspace = new WorkspacePolicy({ root, shared: path.join(root, 'shared'), deniedPaths: ['./secrets/**', '**/*.pem', 'shared/secrets'] });

describe('WorkspacePolicy with deniedPaths', () => {
  it('exposes the normalised patterns and answers denies() for a path or any parent', () => {
    expect(workspace.deniedPatterns).toEqual(['secrets/**', '**/*.pem', 'shared/secrets']);
    expect(Object.isFrozen(workspace.deniedPatterns)).toBe(true);
    expect(['secrets', 'secrets/deep/x', 'Secrets/new', 'src/b.pem', 'shared/secrets/s'].map((p) => workspace.denies(p))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['', 'src', 'src/a.ts', 'secretsX', 'shared'].map((p) => workspace.denies(p))).toEqual([false, false, false, false, false]);
    expect(new WorkspacePolicy({ root }).deniedPatterns).toEqual([]);
  });

  it.for(['secrets/prod.key', './secrets/deep/x', `${root}/secrets`, 'private:/secrets/new.txt', 'link', 'src/b.pem', 'shared:/secrets/s', 'src/../secrets'])(
    'resolve refuses %s with path_denied, naming the pattern',
    (spelled) => {
      expect(() => workspace.resolve(spelled)).toThrow(expect.objectContaining({ code: 'path_denied', message: expect.stringMatching(/pattern '/) }));
    },
  );

  it('resolveLink refuses a hidden name, not a link that leads into one (the link itself is not hidden)', () => {
    expect(() => workspace.resolveLink('secrets/prod.key')).toThrow(expect.objectContaining({ code: 'path_denied' }));
    expect(workspace.resolveLink('link').relative).toBe('link');
  });

  it('spells hidden paths when asked (for policy rules), and never refuses the rest', () => {
    expect(workspace.resolve('link', { allowDenied: true }).relative).toBe('secrets/prod.key');
    expect(workspace.resolveLink('secrets', { allowDenied: true }).relative).toBe('secrets');
    expect(workspace.resolve('src/a.ts').relative).toBe('src/a.ts');
  });
});

describe(walkWorkspace, () => {
  it('neither lists nor enters a hidden path, and names it in `hidden`', () => {
    const found = walkWorkspace(workspace, root, { gitignore: false });
    expect(found.entries.map((e) => e.relative)).toEqual(['config', 'link', 'shared', 'src', 'config/keys', 'src/a.ts', 'config/keys/k']);
    expect(found.hidden).toEqual(['secrets', 'shared/secrets', 'src/b.pem']);
  });

  it('hides by the path from the private root, whichever scope is walked', () => {
    expect(walkWorkspace(workspace, workspace.rootOf('shared')).entries).toEqual([]);
  });
});

describe(hiddenPathsUnder, () => {
  it('names each hidden path with its pattern, entering only directories a pattern may reach', () => {
    expect(hiddenPathsUnder(workspace, root).paths).toEqual([
      { path: 'secrets', pattern: 'secrets/**' },
      { path: 'shared/secrets', pattern: 'shared/secrets' },
      { path: 'src/b.pem', pattern: '**/*.pem' },
    ]);
    const narrow = new WorkspacePolicy({ root, deniedPaths: ['secrets/**'] });
    // Only `secrets` can hold what `secrets/**` hides: one entry suffices to find it, however large the rest.
    expect(hiddenPathsUnder(narrow, path.join(root, 'src'), 1)).toEqual({ paths: [], complete: true });
    expect(hiddenPathsUnder(narrow, path.join(root, 'secrets', 'deep'))).toEqual({ paths: [{ path: 'secrets/deep', pattern: 'secrets/**' }], complete: true });
  });

  it('names every hidden path, however many there are', () => {
    const many = fs.mkdtempSync(path.join(root, 'many-'));
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(many, `k${String(i).padStart(2, '0')}.pem`), 'x');
    const found = hiddenPathsUnder(workspace, many);
    expect(found.complete).toBe(true);
    expect(found.paths).toHaveLength(40);
    fs.rmSync(many, { recursive: true });
  });

  it('leaves hidden paths in what a recursive delete is spelled as, for policy rules that name them', () => {
    expect(pathsUnder(workspace.resolveLink('secrets', { allowDenied: true })).paths).toEqual(['secrets/deep', 'secrets/prod.key', 'secrets/deep/x']);
  });
});

describe(ripgrepExclusions, () => {
  it.for([
    ['', ['--iglob', '!/secrets/**', '--iglob', '!/**/*.pem', '--iglob', '!/shared/secrets']],
    ['src', ['--iglob', '!/**/*.pem']],
    ['shared', ['--iglob', '!/**/*.pem', '--iglob', '!/secrets']],
  ] as const)('searching %j passes %j', ([dir, expected]) => {
    expect(ripgrepExclusions(workspace, path.join(root, dir))).toEqual(expected);
  });
});

describe('a workspace that holds the folder Toolwright processes share', () => {
  // Its tools could change the turn's lock, the record of placeholders, the files sandboxes are built from.
  it('is refused, naming the folder', () => {
    const shared = holdsSharedDirectory('/');
    expect(shared).toBeDefined();
    expect(() => new WorkspacePolicy({ root: '/' })).toThrow(/The private:\/ root cannot be used: the workspace \/ holds .*toolwright-\d+/);
  });
});
