import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireFileLock, type LockOwner } from './file-lock.js';

// One process at a time per file (the audit log, a task file), whatever the lock file left behind holds and however
// many processes race to break a stale one.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-file-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => path.join(dir, `f${n++}`);
const locked = (owner: LockOwner) => Object.assign(new Error(`held by ${owner.pid}@${owner.hostname}`), { owner });
const ownerText = (pid: number, hostname: string) => JSON.stringify({ pid, hostname, startedAt: 'x' });

describe(acquireFileLock, () => {
  it.each([
    ['this process, live', () => ownerText(process.pid, os.hostname()), 'refused'],
    ['its parent, live', () => ownerText(process.ppid, os.hostname()), 'refused'],
    ['a live pid of another host', () => ownerText(process.pid, 'elsewhere'), 'refused'],
    ['a dead pid of another host (its liveness cannot be told)', () => ownerText(999_999_999, 'elsewhere'), 'refused'],
    ['a dead pid of this host', () => ownerText(999_999_999, os.hostname()), 'taken'],
    ['nothing (a writer died before filling it)', () => '', 'taken'],
    ['no JSON', () => 'garbage', 'taken'],
    ['JSON that names no owner', () => '{"pid":"1"}', 'taken'],
  ])('given a lock held by %s: %s', (_name, text, outcome) => {
    const file = fresh();
    fs.writeFileSync(`${file}.lock`, text());
    let release: (() => void) | undefined;
    try {
      release = acquireFileLock(file, { locked });
    } catch (error) {
      expect(error).toHaveProperty('owner');
    }
    expect(release ? 'taken' : 'refused').toBe(outcome);
    if (release) expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    release?.();
  });

  it('lets exactly one of many processes break a stale lock at once, round after round', async () => {
    const module = path.resolve(__dirname, '../dist/file-lock.js');
    for (let round = 0; round < 3; round++) {
      const file = fresh();
      fs.writeFileSync(`${file}.lock`, ownerText(999_999_999, os.hostname()));
      // Every child loads first, then all try at the same moment (a busy wait to a shared time): the race is real.
      const at = Date.now() + 1500;
      // A holder keeps the lock (and lives) until every child has answered, so a late one meets a live owner.
      const script = `const { acquireFileLock } = require(${JSON.stringify(module)});
        while (Date.now() < ${at});
        try { acquireFileLock(${JSON.stringify(file)}, { locked: () => new Error('locked') }); console.log('acquired'); process.stdin.resume(); }
        catch (e) { console.log('refused'); }`;
      const children = Array.from({ length: 6 }, () => spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }));
      const outcomes = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) => {
              let out = '';
              child.stdout.on('data', (chunk: Buffer) => {
                out += chunk.toString();
                if (out.includes('\n')) resolve(out.trim());
              });
              child.on('exit', () => resolve(out.trim()));
            }),
        ),
      );
      await Promise.all(
        children.map((child) => (child.stdin.end(), child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)),
      );
      expect(
        outcomes.filter((outcome) => outcome === 'acquired'),
        `round ${round}: ${outcomes.join(', ')}`,
      ).toHaveLength(1);
      expect(fs.readdirSync(dir).filter((name) => name.endsWith('.break'))).toEqual([]);
    }
  });
});
