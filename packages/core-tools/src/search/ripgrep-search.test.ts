import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-rg-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('the ripgrep the host runs', () => {
  // `npx` puts the workspace's node_modules/.bin first on PATH, where a command could plant an `rg` the host ran.
  it('is the one in the system folders, never one found on PATH', () => {
    const planted = path.join(base, 'node_modules', '.bin');
    const marker = path.join(base, 'ran');
    fs.mkdirSync(planted, { recursive: true });
    fs.writeFileSync(path.join(planted, 'rg'), `#!/bin/sh\necho ran > ${marker}\necho "ripgrep 99.0.0"\n`, { mode: 0o755 });
    const module = JSON.stringify(path.join(import.meta.dirname, '..', '..', 'dist', 'search', 'ripgrep-search.js'));
    const run = spawnSync(
      process.execPath,
      ['-e', `const rg = require(${module}); console.log(JSON.stringify([rg.findRipgrep(), rg.ripgrepVersion() ?? null]));`],
      {
        env: { ...process.env, PATH: `${planted}:${process.env.PATH}` },
        encoding: 'utf8',
      },
    );
    const [binary, version] = JSON.parse(run.stdout) as [string | false, string | null];
    expect(fs.existsSync(marker)).toBe(false);
    if (binary !== false) {
      expect(path.isAbsolute(binary)).toBe(true);
      expect(path.dirname(binary)).not.toBe(planted);
      expect(version).toMatch(/^ripgrep \d/);
      expect(version).not.toContain('99.0.0');
    }
  });
});
