// The README's commands (`npm install && npm run demo`, then `npx toolwright ...`) need npm to link the
// `toolwright` bin at install time, which npm does only when the bin's target exists then — before any
// build. So the target is a committed, executable file that loads the built CLI.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, run } from './support/run.js';

const cli = path.join(REPO, 'packages', 'cli');
const manifest = JSON.parse(fs.readFileSync(path.join(cli, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };

describe('the toolwright bin', () => {
  it('points at a committed, executable file (so npm links it before dist/ is built)', () => {
    const target = path.join(cli, manifest.bin.toolwright!);
    const tracked = execFileSync('git', ['ls-files', '--stage', '--', path.relative(REPO, target)], { cwd: REPO, encoding: 'utf8' });
    expect(tracked, `${target} must be committed`).toMatch(/^100755 /);
    expect(manifest.files).toContain(manifest.bin.toolwright!.replace(/^\.\//, '').split('/')[0]);
  });

  it('is linked into node_modules/.bin by the install and runs the CLI', () => {
    const linked = path.join(REPO, 'node_modules', '.bin', 'toolwright');
    expect(fs.existsSync(linked), 'npm install did not link the toolwright bin').toBe(true);
    const result = run(linked, ['--help'], REPO);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/toolwright/);
  });

  it('says how to build when dist/ is missing, instead of a stack trace', () => {
    const copy = fs.mkdtempSync(path.join(REPO, 'e2e', '.tmp-bin-'));
    try {
      fs.mkdirSync(path.join(copy, 'bin'));
      fs.copyFileSync(path.join(cli, manifest.bin.toolwright!), path.join(copy, 'bin', 'toolwright.js'));
      const result = run(process.execPath, [path.join(copy, 'bin', 'toolwright.js'), '--help'], copy);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/not built yet.*npm run build/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
