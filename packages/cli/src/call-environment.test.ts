import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, WorkspacePolicy } from '@toolwright/core-tools';
import { withOwnFilesProtected } from './call-environment.js';
import { hostCodePaths } from './host-code.js';
import type { CliSettings } from './config/cli-settings.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-own-')));
const root = path.join(base, 'ws');
fs.mkdirSync(path.join(root, 'conf'), { recursive: true });
fs.symlinkSync(root, path.join(base, 'alias'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const settings = (overrides: Partial<CliSettings>): CliSettings => ({
  workspace: { root },
  workspaceFrom: 'flag',
  coreTools: {},
  executor: {},
  tools: { core: true },
  ...overrides,
});

describe(withOwnFilesProtected, () => {
  it('protects the config file, the policy file and the audit log where they lie in the workspace, however it is spelled', () => {
    const config = withOwnFilesProtected(
      settings({
        workspace: { root: path.join(base, 'alias') },
        configFile: path.join(root, 'conf', 'tw.json'),
        policy: { file: path.join(base, 'alias', 'conf', 'rules.json') },
        audit: { path: path.join(root, 'logs', 'a.jsonl') },
      }),
    );
    const workspace = new WorkspacePolicy(config);
    for (const file of ['conf/tw.json', 'conf/rules.json', 'logs/a.jsonl', 'toolwright.config.json', 'toolwright.policy.json', '.git/config']) {
      expect(workspace.resolve(file).protected, file).toBe(true);
    }
    expect(workspace.resolve('conf/other.json').protected).toBe(false);
    expect(workspace.resolve('sub/conf/tw.json').protected).toBe(false); // anchored at the root
  });

  // Found by a review: only the log's own name was protected, and `file_write logs/a.jsonl.1` (or a command) rewrote the
  // rotated history, or planted `logs/a.jsonl.lock`. The log's folder is protected whole, unless it is the root.
  it("protects an audit log's folder whole — its rotated files, its lock, whatever else lies there", () => {
    const workspace = new WorkspacePolicy(withOwnFilesProtected(settings({ audit: { path: path.join(root, 'logs', 'a.jsonl') } })));
    for (const file of ['logs', 'logs/a.jsonl', 'logs/a.jsonl.1', 'logs/a.jsonl.7', 'logs/a.jsonl.lock', 'logs/a.jsonl.lock.break', 'logs/other.txt'])
      expect(workspace.resolve(file).protected, file).toBe(true);
    expect(workspace.resolve('logsx/a.jsonl.1').protected).toBe(false);
    expect(workspace.resolve('sub/logs/a.jsonl.1').protected).toBe(false);
  });

  it('protects an audit log at the root by its name only (the root cannot be protected whole)', () => {
    const config = withOwnFilesProtected(settings({ audit: { path: path.join(root, 'a.jsonl') } }));
    const workspace = new WorkspacePolicy(config);
    expect(workspace.resolve('a.jsonl').protected).toBe(true);
    expect(workspace.resolve('notes.txt').protected).toBe(false);
    expect(config.protectedPaths).toContain('/a.jsonl');
  });

  it('leaves out files outside every scope, and keeps the configured protected paths', () => {
    const config = withOwnFilesProtected(settings({ workspace: { root, protectedPaths: ['/build'] }, configFile: path.join(base, 'toolwright.config.json') }));
    expect(config.protectedPaths).toEqual(['/build', 'toolwright.config.json', 'toolwright.policy.json']);
    expect(withOwnFilesProtected(settings({})).protectedPaths).toEqual([...DEFAULT_PROTECTED_PATHS]);
  });

  // A sandboxed command appended to a dependency a worker of the host loaded later, and to the -p project's compiled
  // cache, and the host ran it (found by an eleventh pass): what the host runs code from is protected in a workspace.
  it("protects the folders the host runs code from when the workspace holds them, and a -p project's tsconfig and package.json", () => {
    const repository = path.resolve(import.meta.dirname, '..', '..', '..');
    const project = path.join(root, 'tsconfig.json');
    fs.writeFileSync(project, '{}');
    fs.writeFileSync(path.join(root, 'package.json'), '{}');
    const code = hostCodePaths(project);
    expect(code).toEqual(expect.arrayContaining([fs.realpathSync(path.join(repository, 'node_modules')), project, path.join(root, 'package.json')]));
    const inRepository = new WorkspacePolicy(withOwnFilesProtected(settings({ workspace: { root: repository } }), code));
    for (const file of ['node_modules/turndown/lib/turndown.cjs.js', 'node_modules/.cache/toolwright/x/tools.js', 'packages/cli/dist/bin.js'])
      expect(inRepository.resolve(file).protected, file).toBe(true);
    expect(inRepository.resolve('docs/index.md').protected).toBe(false);
    // The project had no node_modules when the list was made: -p compiles into node_modules/.cache after (a twelfth pass).
    expect(fs.existsSync(path.join(root, 'node_modules'))).toBe(false);
    const inProject = new WorkspacePolicy(withOwnFilesProtected(settings({}), code));
    for (const file of ['tsconfig.json', 'package.json', 'node_modules/.cache/toolwright/k/tools.js'])
      expect(inProject.resolve(file).protected, file).toBe(true);
    expect(inProject.resolve('conf/other.json').protected).toBe(false);
  });
});
