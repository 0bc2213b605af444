import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListedDirectories } from './listed-directories.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-listed-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const CHANGES = [
  ['a name added', (dir: string) => fs.writeFileSync(path.join(dir, 'new'), '')],
  ['a name removed', (dir: string) => fs.rmdirSync(path.join(dir, 'b'))],
  ['a directory renamed inside', (dir: string) => fs.renameSync(path.join(dir, 'a'), path.join(dir, 'a2'))],
  ['the directory replaced', (dir: string) => (fs.renameSync(dir, `${dir}-old`), fs.mkdirSync(dir))],
] as const;
const dirOf = (index: number) => path.join(base, 'tree', `case${index}`);

// Listings are trusted only once two seconds have passed since a directory last changed (coarse
// file-system clocks): the trees are made first, and the tests wait once for them to settle.
beforeAll(async () => {
  for (let i = 0; i < CHANGES.length; i++) for (const name of ['a', 'b']) fs.mkdirSync(path.join(dirOf(i), name), { recursive: true });
  fs.mkdirSync(path.join(base, 'tree', 'quiet'));
  await new Promise((resolve) => setTimeout(resolve, 2_100));
});

/** A look at the tree, with `dir` listed. */
function listing(dir: string): ListedDirectories {
  const listed = new ListedDirectories(path.join(base, 'tree'), new Set(['.git']));
  listed.record(dir, fs.lstatSync(dir, { bigint: true }));
  return listed;
}

describe(ListedDirectories, () => {
  it.for(CHANGES.map(([what], index) => [what, index] as const))('holds until %s', ([, index]) => {
    const dir = dirOf(index);
    const listed = listing(dir);
    expect(listed.unchanged()).toBe(true);
    CHANGES[index]![1](dir);
    expect(listed.unchanged()).toBe(false);
  });

  it('compares the root by its names, leaving out the ignored ones', () => {
    const listed = listing(path.join(base, 'tree', 'quiet'));
    fs.mkdirSync(path.join(base, 'tree', '.git'));
    expect(listed.unchanged()).toBe(true);
    fs.writeFileSync(path.join(base, 'tree', 'other'), '');
    expect(listed.unchanged()).toBe(false);
  });

  it('distrusts a directory changed within two seconds of its listing', () => {
    const dir = path.join(base, 'fresh');
    fs.mkdirSync(dir);
    expect(listing(dir).unchanged()).toBe(false);
  });
});
