import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, WorkspacePolicy } from '@toolwright/core-tools';
import { withOwnFilesProtected } from './call-environment.js';
import type { CliSettings } from './config/cli-settings.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-own-')));
const root = path.join(base, 'ws');
fs.mkdirSync(path.join(root, 'conf'), { recursive: true });
fs.symlinkSync(root, path.join(base, 'alias'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const settings = (overrides: Partial<CliSettings>): CliSettings => ({ workspace: { root }, coreTools: {}, executor: {}, tools: { core: true }, ...overrides });

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

  it('leaves out files outside every scope, and keeps the configured protected paths', () => {
    const config = withOwnFilesProtected(settings({ workspace: { root, protectedPaths: ['/build'] }, configFile: path.join(base, 'toolwright.config.json') }));
    expect(config.protectedPaths).toEqual(['/build', 'toolwright.config.json', 'toolwright.policy.json']);
    expect(withOwnFilesProtected(settings({})).protectedPaths).toEqual([...DEFAULT_PROTECTED_PATHS]);
  });
});
