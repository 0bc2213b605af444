import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxAssets } from './sandbox-assets.js';
import { holdsSharedDirectory, sharedDirectoryPath } from './shared-directory.js';
import { systemProgram } from './system-programs.js';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-shared-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('what the host keeps for itself', () => {
  // With TMPDIR in the workspace, a command replaced the sandbox's /etc copy by a link to the host's /etc.
  it('keeps the files sandboxes are built from in its own folder, wherever TMPDIR points', () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = base;
    try {
      const assets = sandboxAssets(path.join(base, 'home'));
      expect(assets.etc.dir.startsWith(`${sharedDirectoryPath()}/`)).toBe(true);
      expect(assets.empty.startsWith(`${sharedDirectoryPath()}/`)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('refuses a workspace that holds its folder, and accepts one beside it', () => {
    expect(holdsSharedDirectory(path.dirname(sharedDirectoryPath()))).toMatch(/holds .*toolwright-\d+, where Toolwright keeps what its processes share/);
    expect(holdsSharedDirectory('/')).toBeDefined();
    expect(holdsSharedDirectory(base)).toBeUndefined();
    // Every folder on the way to it holds it; a folder beside it, or named like a way up (`..x`), does not.
    const shared = sharedDirectoryPath();
    for (let dir = path.dirname(shared); ; dir = path.dirname(dir)) {
      expect(holdsSharedDirectory(dir), dir).toBeDefined();
      if (dir === path.dirname(dir)) break;
    }
    for (const name of ['..x', '...', 'toolwright-x']) {
      const beside = path.join(base, name);
      fs.mkdirSync(beside, { recursive: true });
      expect(holdsSharedDirectory(beside), beside).toBeUndefined();
    }
  });

  // `npx` puts the workspace's node_modules/.bin first on PATH: a `flock` or `rg` planted there ran on the host.
  it('runs its own helpers from the system folders, never from PATH', () => {
    const planted = path.join(base, 'bin');
    const marker = path.join(base, 'ran');
    fs.mkdirSync(planted);
    for (const name of ['flock', 'rg', 'git', 'bwrap']) fs.writeFileSync(path.join(planted, name), `#!/bin/sh\necho ${name} >> ${marker}\n`, { mode: 0o755 });
    const hosts = JSON.stringify(path.join(import.meta.dirname, '..', 'dist', 'hosts.js'));
    const script = `const { takeTurn } = require(${hosts}); takeTurn().then((giveBack) => { giveBack(); console.log('turned'); });`;
    const run = spawnSync(process.execPath, ['-e', script], {
      env: { ...process.env, PATH: `${planted}:${process.env.PATH}` },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stdout).toContain('turned');
    expect(fs.existsSync(marker)).toBe(false);
    for (const name of ['flock', 'bwrap']) {
      const found = systemProgram(name);
      if (found) expect(path.dirname(found)).not.toBe(planted);
    }
  });
});
