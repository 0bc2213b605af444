import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandGlob, MAX_GLOB_ENTRIES } from './glob-expansion.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-glob-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
for (const dir of ['a', 'b', 'c']) {
  fs.mkdirSync(path.join(root, dir));
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(root, dir, `f${i}.txt`), '');
}
const anywhere = () => undefined;

describe(expandGlob, () => {
  it('expands segment by segment, sorted, as bash does', () => {
    expect(expandGlob('*/f1.txt', '*/f1.txt', root, anywhere)).toEqual({ ok: true, words: ['a/f1.txt', 'b/f1.txt', 'c/f1.txt'] });
    expect(expandGlob('b/f[12].*', 'b/f[12].*', root, anywhere)).toEqual({ ok: true, words: ['b/f1.txt', 'b/f2.txt'] });
    expect(expandGlob('*/nomatch*', '*/nomatch*', root, anywhere)).toEqual({ ok: true, words: ['*/nomatch*'] });
  });

  // Expanding runs on the host's event loop: a glob that finds nothing still reads every name of every folder it
  // enters. The entries a command line's globs look at are bounded together, matched or not.
  it('refuses once the globs of one line would look at more entries than the budget, counted across its words', () => {
    expect(MAX_GLOB_ENTRIES).toBe(200_000);
    const budget = { entries: 3 + 30 + 5 };
    expect(expandGlob('*/nomatch*', '*/nomatch*', root, anywhere, budget)).toEqual({ ok: true, words: ['*/nomatch*'] });
    expect(budget.entries).toBe(5);
    const refused = expandGlob('a/*', 'a/*', root, anywhere, budget);
    expect(refused).toEqual({
      ok: false,
      reason: `the globs of this command would look at more than ${MAX_GLOB_ENTRIES} directory entries ('a/*' among them); narrow them or name the files`,
    });
  });

  // bash expands a name that is not UTF-8 as its bytes; decoded, the judge would read another name (U+FFFD) in its
  // place. Names of every such shape are refused, and counted against the budget like any other.
  it.for([[0xff], [0xc3, 0x28], [0xe2, 0x82], [0x66, 0x80, 0x6f], [0xed, 0xa0, 0x80]])(
    'refuses a folder holding the undecodable name %o, and counts it',
    (bytes) => {
      const dir = fs.mkdtempSync(path.join(root, 'bytes-'));
      fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(bytes)]), '');
      fs.writeFileSync(path.join(dir, 'plain.txt'), '');
      const pattern = `${path.basename(dir)}/*`;
      expect(expandGlob(pattern, pattern, root, anywhere)).toEqual({
        ok: false,
        reason: `the glob '${pattern}' would list a folder holding a name that is not UTF-8, which bash would expand as it is and the judge cannot read the same; rename it or name the files`,
      });
      for (let i = 0; i < 20; i++) fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(bytes), Buffer.from(String(i))]), '');
      expect(expandGlob(pattern, pattern, root, anywhere, { entries: 10 })).toMatchObject({
        ok: false,
        reason: expect.stringContaining('more than 200000 directory entries'),
      });
    },
  );
});
