import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { walk, walkAsync, type WalkEntry } from './walk.js';

const ws = tempWorkspace({
  '.gitignore': 'ignored/\n',
  'ignored/x.txt': 'x',
  ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`wide/f${String(i).padStart(2, '0')}.txt`, 'x'])),
  'deep/a/b/c.txt': 'c',
});
afterAll(() => ws.cleanup());

async function collect(options: Parameters<typeof walkAsync>[1]): Promise<{ entries: string[]; visited: number; capped: boolean }> {
  const entries: string[] = [];
  const progress = await walkAsync(ws.root, options, (entry: WalkEntry) => void entries.push(entry.relative));
  return { entries, ...progress };
}

describe(walkAsync, () => {
  it('visits what walk returns, in the same order', async () => {
    const { entries, visited, capped } = await collect({});
    expect(entries).toEqual(walk(ws.root).entries.map((e) => e.relative));
    expect(capped).toBe(false);
    expect(visited).toBe(entries.length + 1); // the ignored folder was looked at
  });

  it('stops after looking at maxVisited entries, skipped ones included, and says so', async () => {
    const { entries, visited, capped } = await collect({ maxVisited: 10 });
    expect({ visited, capped }).toEqual({ visited: 10, capped: true });
    // The directory the cap falls in is read only in part, in the file system's order.
    expect(entries).toHaveLength(9);
    expect(walk(ws.root).entries.map((e) => e.relative)).toEqual(expect.arrayContaining(entries));
    expect(walk(ws.root, { maxVisited: 10 })).toMatchObject({ visited: 10, capped: true, truncated: false });
  });

  it('is not capped when the tree holds exactly maxVisited entries', async () => {
    const all = (await collect({})).visited;
    expect(await collect({ maxVisited: all })).toMatchObject({ visited: all, capped: false });
  });

  it('stops when visit says so, and rejects with the reason when the signal aborts', async () => {
    let seen = 0;
    await walkAsync(ws.root, {}, () => (++seen === 3 ? 'stop' : undefined));
    expect(seen).toBe(3);
    const reason = new Error('call over');
    await expect(walkAsync(ws.root, { signal: AbortSignal.abort(reason) }, () => undefined)).rejects.toBe(reason);
  });
});

describe(walk, () => {
  // A workspace resolves `a/sub` to its real path; if `a` is swapped for a link before the walk
  // begins, the same path now leads elsewhere (a parent's swap, not only the start's own).
  it('walks nothing from a real start that now leads elsewhere, when told the start is real', () => {
    const outside = tempWorkspace({ 'sub/secret.txt': 'SECRET' });
    try {
      fs.symlinkSync(outside.root, path.join(ws.root, 'swapped'));
      const start = path.join(ws.root, 'swapped', 'sub');
      expect(walk(start, { startIsReal: true })).toMatchObject({ entries: [], unreadable: true });
      expect(walk(path.join(ws.root, 'deep'), { startIsReal: true }).entries.map((e) => e.relative)).toEqual(['a', 'a/b', 'a/b/c.txt']);
      // A caller that makes no such promise walks where the path leads.
      expect(walk(start).entries.map((e) => e.relative)).toEqual(['secret.txt']);
    } finally {
      fs.rmSync(path.join(ws.root, 'swapped'));
      outside.cleanup();
    }
  });
});

describe('names that are not UTF-8', () => {
  it('are left out and make the walk incomplete, never read as another name', () => {
    const tree = tempWorkspace({ '\uFFFD/decoy.txt': 'decoy', 'ok/a.txt': 'a' });
    try {
      const raw = Buffer.concat([Buffer.from(`${tree.root}/`), Buffer.from([0xff])]);
      fs.mkdirSync(raw);
      fs.writeFileSync(Buffer.concat([raw, Buffer.from('/secret.key')]), 'SECRET');
      const result = walk(tree.root);
      expect(result.unreadable).toBe(true);
      expect(result.entries.map((e) => e.relative).sort()).toEqual(['ok', 'ok/a.txt', '\uFFFD', '\uFFFD/decoy.txt']);
    } finally {
      tree.cleanup();
    }
  });
});
