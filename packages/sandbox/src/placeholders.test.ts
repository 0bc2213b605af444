import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdPlaceholders } from './placeholders.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-placeholders-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe(holdPlaceholders, () => {
  it('makes the missing paths as empty placeholders, held until the last release', () => {
    fs.writeFileSync(path.join(root, '.env'), 'KEY=1');
    const requests = [
      { path: path.join(root, '.git'), kind: 'directory' as const },
      { path: path.join(root, '.env'), kind: 'file' as const },
      { path: path.join(root, 'toolwright.config.json'), kind: 'file' as const },
    ];
    const first = holdPlaceholders(requests);
    expect(first.placeholders).toEqual([path.join(root, '.git'), path.join(root, 'toolwright.config.json')]);
    expect(fs.readdirSync(path.join(root, '.git'))).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'toolwright.config.json'), 'utf8')).toBe('');
    const second = holdPlaceholders(requests);
    expect(second.placeholders).toEqual(first.placeholders);
    first.release();
    first.release(); // once only
    expect(fs.existsSync(path.join(root, '.git'))).toBe(true);
    second.release();
    expect(fs.existsSync(path.join(root, '.git'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'toolwright.config.json'))).toBe(false);
    expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('KEY=1');
  });

  it('leaves a placeholder that someone filled meanwhile', () => {
    const held = holdPlaceholders([
      { path: path.join(root, '.toolwright'), kind: 'directory' },
      { path: path.join(root, 'policy.json'), kind: 'file' },
    ]);
    fs.chmodSync(path.join(root, '.toolwright'), 0o755);
    fs.writeFileSync(path.join(root, '.toolwright', 'audit.log'), 'kept');
    fs.chmodSync(path.join(root, 'policy.json'), 0o644);
    fs.writeFileSync(path.join(root, 'policy.json'), '{}');
    held.release();
    expect(fs.readFileSync(path.join(root, '.toolwright', 'audit.log'), 'utf8')).toBe('kept');
    expect(fs.readFileSync(path.join(root, 'policy.json'), 'utf8')).toBe('{}');
  });
});

describe('placeholders of an interrupted process', () => {
  it.for(['SIGINT', 'SIGTERM'] as const)('are removed when it is ended by %s, which still ends it', async (signal) => {
    const dir = fs.mkdtempSync(path.join(root, 'signal-'));
    // The built module (`npm test` builds first), in a process of its own that the signal ends.
    const module = path.join(import.meta.dirname, '..', 'dist', 'placeholders.js');
    const script = `require(${JSON.stringify(module)}).holdPlaceholders([{ path: ${JSON.stringify(path.join(dir, '.git'))}, kind: 'directory' }]); console.log('held'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    expect(fs.existsSync(path.join(dir, '.git'))).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, how) => resolve(how)));
    child.kill(signal);
    expect(await ended).toBe(signal);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
