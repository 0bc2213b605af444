import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSandboxesCovering, watchCovers } from './cover-watch.js';

const made: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A workspace with a covered file (`.env`) and a covered file in a folder (`conf/prod.key`). */
function workspace(): { root: string; covered: string[] } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cover-watch-')));
  made.push(root);
  fs.mkdirSync(path.join(root, 'conf'));
  fs.writeFileSync(path.join(root, '.env'), 'TOKEN=1\n');
  fs.writeFileSync(path.join(root, 'conf', 'prod.key'), 'KEY\n');
  return { root, covered: [path.join(root, '.env'), path.join(root, 'conf', 'prod.key')] };
}

/** Puts a new file in `file`'s place, as an editor saving by rename does. */
function replace(file: string): void {
  fs.writeFileSync(`${file}.new`, 'NEW\n');
  fs.renameSync(`${file}.new`, file);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([
  ['watched by the kernel', false],
  // The user's inotify instances or watches used up (a command can hold them all): fs.watch throws.
  ['with no kernel watch to be had', true],
])('watchCovers, %s', (_, exhausted) => {
  const start = (root: string, covered: string[], onBroken: (file: string) => void) => {
    if (exhausted)
      vi.spyOn(fs, 'watch').mockImplementation(() => {
        throw Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' });
      });
    return watchCovers(covered, onBroken, root);
  };

  it('reports nothing while nothing covered changes, though files beside them do', async () => {
    const { root, covered } = workspace();
    const broken = vi.fn();
    const stop = start(root, covered, broken);
    try {
      fs.writeFileSync(path.join(root, 'notes.txt'), 'x');
      fs.writeFileSync(path.join(root, 'conf', 'other.txt'), 'x');
      fs.appendFileSync(covered[0]!, 'MORE=1\n');
      await sleep(300);
      expect(broken).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it.for([
    ['a covered file replaced by rename', (root: string) => replace(path.join(root, '.env')), '.env'],
    ['a covered file removed', (root: string) => fs.rmSync(path.join(root, 'conf', 'prod.key')), 'conf/prod.key'],
    [
      'a folder on the way replaced',
      (root: string) => (fs.renameSync(path.join(root, 'conf'), path.join(root, 'conf.old')), fs.mkdirSync(path.join(root, 'conf'))),
      'conf',
    ],
  ] as const)('reports %s, once', async ([, change, expected]) => {
    const { root, covered } = workspace();
    const broken = vi.fn();
    const stop = start(root, covered, broken);
    try {
      change(root);
      await vi.waitFor(() => expect(broken).toHaveBeenCalled(), { timeout: 5_000, interval: 10 });
      expect(broken.mock.calls.map(([file]) => path.relative(root, file as string))).toEqual([expected]);
      await sleep(100);
      expect(broken).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('reports nothing once stopped', async () => {
    const { root, covered } = workspace();
    const broken = vi.fn();
    start(root, covered, broken)();
    replace(covered[0]!);
    await sleep(150);
    expect(broken).not.toHaveBeenCalled();
  });
});

describe('endSandboxesCovering', () => {
  it.for([
    ['the covered file itself', '.env', '.env'],
    ['a folder holding a covered file', 'conf', 'conf/prod.key'],
    ['the workspace root, with both in it', '.', '.env'],
  ] as const)('ends, before the change, the watch covering %s (once, then it is stopped)', ([, target, expected]) => {
    const { root, covered } = workspace();
    const broken = vi.fn();
    const stop = watchCovers(covered, broken, root);
    try {
      expect(endSandboxesCovering(path.join(root, target))).toBe(true);
      expect(broken.mock.calls.map(([file]) => path.relative(root, file as string))).toEqual([expected]);
      expect(endSandboxesCovering(path.join(root, target))).toBe(true);
      expect(broken).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('leaves alone a watch that covers nothing at or below the path, and a stopped one', () => {
    const { root, covered } = workspace();
    const broken = vi.fn();
    const stop = watchCovers(covered, broken, root);
    try {
      for (const beside of ['notes.txt', 'conf/other.txt', '.env.local', 'con']) expect(endSandboxesCovering(path.join(root, beside))).toBe(true);
      expect(broken).not.toHaveBeenCalled();
    } finally {
      stop();
    }
    expect(endSandboxesCovering(path.join(root, '.env'))).toBe(true);
    expect(broken).not.toHaveBeenCalled();
  });

  it('says so when a sandbox it ended still has processes (its onBroken returned false), and ends every other one', () => {
    const { root, covered } = workspace();
    const stuck = vi.fn(() => false);
    const ended = vi.fn(() => true);
    const stops = [watchCovers(covered, stuck, root), watchCovers([covered[0]!], ended, root)];
    try {
      expect(endSandboxesCovering(path.join(root, '.env'))).toBe(false);
      expect(stuck).toHaveBeenCalledTimes(1);
      expect(ended).toHaveBeenCalledTimes(1);
      // Asked again at every later change, never let through, until its owner stops the watch (its last process gone).
      expect(endSandboxesCovering(path.join(root, '.env'))).toBe(false);
      expect(endSandboxesCovering(path.join(root, 'conf'))).toBe(false);
      expect(stuck).toHaveBeenCalledTimes(3);
      expect(ended).toHaveBeenCalledTimes(1);
      stops[0]!();
      expect(endSandboxesCovering(path.join(root, '.env'))).toBe(true);
      expect(stuck).toHaveBeenCalledTimes(3);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('keeps asking a sandbox the kernel saw broken whose processes are not gone, before the next change goes ahead', async () => {
    const { root, covered } = workspace();
    const stuck = vi.fn(() => false);
    const stop = watchCovers(covered, stuck, root);
    try {
      replace(covered[0]!);
      await vi.waitFor(() => expect(stuck).toHaveBeenCalledTimes(1), { timeout: 5_000, interval: 10 });
      expect(endSandboxesCovering(covered[1]!)).toBe(false);
      expect(stuck).toHaveBeenCalledTimes(2);
    } finally {
      stop();
    }
    expect(endSandboxesCovering(covered[1]!)).toBe(true);
  });
});
