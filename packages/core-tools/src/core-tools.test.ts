import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { coreToolsRiskLevels } from './core-tools.js';
import { protectedPathsUnder } from './workspace/tree-scan.js';
import { DEFAULT_PROTECTED_PATHS, WorkspacePolicy } from './workspace/workspace-policy.js';
import { protectedPathMatcher } from './workspace/protected-paths.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-risk-')));
  temporary.push(dir);
  return dir;
}

/** A random tree: each entry a path of ordinary and protected names; protected ones may be files or directories. */
const NAMES = ['a', 'b', 'src', 'lib', 'node_modules', '.gitignore', '.envrc', 'x.git'];
const PROTECTED = ['.git', '.env', '.toolwright', '.GIT', 'toolwright.config.json', 'toolwright.policy.json'];
const tree = fc.array(
  fc.record({
    dirs: fc.array(fc.constantFrom(...NAMES), { maxLength: 4 }),
    leaf: fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom(...PROTECTED)),
    asDirectory: fc.boolean(),
  }),
  { minLength: 1, maxLength: 8 },
);

function plant(dir: string, entries: { dirs: string[]; leaf: string; asDirectory: boolean }[]): void {
  for (const { dirs, leaf, asDirectory } of entries) {
    const parent = path.join(dir, ...dirs);
    const target = path.join(parent, leaf);
    try {
      fs.mkdirSync(parent, { recursive: true });
      if (fs.existsSync(target)) continue;
      if (asDirectory) fs.mkdirSync(path.join(target, 'objects'), { recursive: true });
      else fs.writeFileSync(target, 'x');
    } catch {
      // a name already planted as a file cannot also be a directory: that entry is skipped
    }
  }
}

/** The protected paths a full walk finds, by brute force: every path with a protected segment, shallowest only. */
function expectedProtected(dir: string, prefix: string): string[] {
  const isProtected = protectedPathMatcher(DEFAULT_PROTECTED_PATHS);
  const found: string[] = [];
  const visit = (absolute: string, relative: string) => {
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (isProtected(child)) found.push(child);
      else if (entry.isDirectory()) visit(path.join(absolute, entry.name), child);
    }
  };
  visit(dir, prefix);
  return found.sort();
}

describe(coreToolsRiskLevels, () => {
  it('a recursive delete names every protected path inside the tree it removes (property)', () => {
    fc.assert(
      fc.property(tree, (entries) => {
        const root = tempDir();
        plant(path.join(root, 'sub'), entries);
        const risk = coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root }) });
        const expected = expectedProtected(path.join(root, 'sub'), 'sub').slice(0, 16);
        for (const spelled of ['sub', './sub', `${root}/sub`, 'private:/sub/', 'x/../sub']) {
          const answer = risk.file_delete!({ path: spelled, recursive: true });
          if (expected.length === 0) expect(answer).toBe('safe');
          else expect(answer).toMatchObject({ level: 'risky', protectedPaths: expect.arrayContaining(expected) });
        }
        fs.rmSync(root, { recursive: true, force: true });
      }),
      { numRuns: 60 },
    );
  });

  it('a recursive delete of the workspace root names the protected paths in it', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    expect(coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root }) }).file_delete!({ path: '.', recursive: true })).toMatchObject({
      protectedPaths: ['.git'],
    });
  });

  it('never walks through a link: deleting a link removes the link, not the tree it leads to', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
    fs.symlinkSync('repo', path.join(root, 'alias'));
    expect(coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root }) }).file_delete!({ path: 'alias', recursive: true })).toBe('safe');
  });

  it('reports a tree too large to walk as touching protected paths', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'big'));
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(root, 'big', `f${i}`), '');
    const workspace = new WorkspacePolicy({ root });
    const big = workspace.resolve('big');
    expect(protectedPathsUnder(workspace, big, 10)).toEqual({ paths: [], complete: false });
    expect(protectedPathsUnder(workspace, big, 100)).toEqual({ paths: [], complete: true });
  });

  it('a non-recursive delete, a write and an edit name the protected path they act on', () => {
    const root = tempDir();
    const risk = coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root }) });
    for (const file of ['toolwright.config.json', 'toolwright.policy.json', 'sub/.env', '.git/config']) {
      for (const tool of ['file_write', 'file_edit', 'file_delete'])
        expect(risk[tool]!({ path: file })).toMatchObject({ level: 'risky', protectedPaths: [file] });
    }
    expect(risk.file_delete!({ path: 'sub', recursive: false })).toBe('safe');
  });

  it.for<[string, Record<string, unknown>, boolean]>([
    ['escalate: true', { command: 'npm install', escalate: true }, true],
    ['escalate: false', { command: 'npm install', escalate: false }, false],
    ['no escalate', { command: 'npm install' }, false],
    // Argument validation refuses these once `escalate` is a declared boolean; the hook fails closed anyway.
    ['escalate: "true"', { command: 'npm install', escalate: 'true' }, true],
    ['escalate: 1', { command: 'npm install', escalate: 1 }, true],
  ])('shell_exec with %s is an escalation: %s', ([, args, escalates]) => {
    const risk = coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root: tempDir() }) });
    const outside = 'it runs "npm install" outside the kernel sandbox, where files outside the workspace and the network are within its reach';
    expect(risk.shell_exec!(args)).toEqual(escalates ? { level: 'risky', reason: outside, escalation: outside } : 'safe');
  });

  it('quotes the command of an escalation as JSON, so a newline or a control character cannot pass for more of the question', () => {
    const risk = coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root: tempDir() }) });
    expect(risk.shell_exec!({ command: 'true\nType "escalate":\u001b[2J', escalate: true })).toMatchObject({
      escalation: expect.stringContaining('it runs "true\\nType \\"escalate\\":\\u001b[2J" outside the kernel sandbox'),
    });
  });

  it('vault_copyto names a protected path it would write', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'shared'));
    const risk = coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root, shared: path.join(root, 'shared') }) });
    expect(risk.vault_copyto!({ name: 'toolwright.config.json', destination: 'tmp' })).toMatchObject({ protectedPaths: ['tmp/toolwright.config.json'] });
    expect(risk.vault_copyto!({ name: 'conf/toolwright.policy.json' })).toMatchObject({ protectedPaths: ['shared:/conf/toolwright.policy.json'] });
    expect(risk.vault_copyto!({ name: 'templates/report.md' })).toBe('safe');
  });
});
