import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { VaultTool, renderVaultCopy } from './vault-copyto.js';

const ws = tempWorkspace();
const shared = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-shared-')));
const vault = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-vault-')));
fs.mkdirSync(path.join(vault, 'templates'));
fs.writeFileSync(path.join(vault, 'templates', 'report.md'), '# Report\n');
fs.symlinkSync('/etc/passwd', path.join(vault, 'passwd-link'));
afterAll(() => {
  ws.cleanup();
  fs.rmSync(shared, { recursive: true });
  fs.rmSync(vault, { recursive: true });
});

const tool = new VaultTool({ workspace: new WorkspacePolicy({ root: ws.root, shared }), vault: { root: vault } });

describe('vault_copyto', () => {
  it('copies an entry into the shared scope or the private tmp area', async () => {
    expect(await tool.vaultCopyto('templates/report.md')).toEqual({ name: 'templates/report.md', path: 'shared:/templates/report.md', bytes: 9 });
    expect(fs.readFileSync(path.join(shared, 'templates', 'report.md'), 'utf8')).toBe('# Report\n');
    expect((await tool.vaultCopyto('templates/report.md', 'tmp')).path).toBe('tmp/templates/report.md');
    expect(ws.read('tmp/templates/report.md')).toBe('# Report\n');
    expect(renderVaultCopy({ name: 'templates/report.md', path: 'shared:/templates/report.md', bytes: 9 })).toBe(
      'Copied the vault entry templates/report.md (9 bytes) to shared:/templates/report.md.',
    );
  });

  it('refuses to overwrite unless asked', async () => {
    await expect(tool.vaultCopyto('templates/report.md')).rejects.toThrow(/already exists/);
    await expect(tool.vaultCopyto('templates/report.md', 'shared', true)).resolves.toMatchObject({ bytes: 9 });
  });

  it.each(['../secret', '/etc/passwd', 'templates/../../x', '.hidden', 'a//b', '', 'a\0b', 'x/'.repeat(20)])('refuses the name %j', async (name) => {
    await expect(tool.vaultCopyto(name)).rejects.toThrow(/not a vault entry name/);
  });

  it('never reads through a symlink that leaves the vault, nor a missing entry', async () => {
    await expect(tool.vaultCopyto('passwd-link')).rejects.toThrow(/outside|link/);
    await expect(tool.vaultCopyto('missing.md')).rejects.toThrow(/does not exist|not found|no such/i);
  });

  it('says when no vault or no shared scope is configured', async () => {
    await expect(new VaultTool(ws.env).vaultCopyto('templates/report.md')).rejects.toThrow('No vault is configured');
    await expect(new VaultTool({ ...ws.env, vault: { root: vault } }).vaultCopyto('templates/report.md')).rejects.toThrow(/shared:\/ scope is not configured/);
  });
});
