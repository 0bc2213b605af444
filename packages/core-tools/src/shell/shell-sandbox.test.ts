import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxSupport } from '@toolwright/sandbox';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { ShellSandbox } from './shell-sandbox.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-shell-sandbox-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe(ShellSandbox, () => {
  // Found by a ninth pass: a command that filled the disk made the next process's probe fail, and `auto` ran every
  // later command of that tool set without a sandbox, the decision kept for good.
  it('refuses a command when the sandbox could not be made just now, and decides again at the next one', async () => {
    const answers: SandboxSupport[] = [
      { available: false, reason: 'No space left on device', transient: true },
      { available: false, reason: 'bubblewrap is not installed' },
    ];
    let probes = 0;
    const sandbox = new ShellSandbox('auto', new WorkspacePolicy({ root }), {}, async () => answers[Math.min(probes++, answers.length - 1)]!);
    await expect(sandbox.setting()).rejects.toThrow(/could not be made just now \(No space left on device\); the command was not run: try again/);
    // A machine without bubblewrap falls back under auto, as it did before; that decision is kept.
    expect(await sandbox.setting()).toEqual({ ranIn: 'host' });
    expect(await sandbox.setting()).toEqual({ ranIn: 'host' });
    expect(probes).toBe(2);
  });
});
