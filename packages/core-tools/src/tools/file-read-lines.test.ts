import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLinePage, type LinePageOptions } from './file-read-lines.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-lines-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function page(content: string | Buffer, options: Partial<LinePageOptions>) {
  const file = path.join(dir, 'f.txt');
  fs.writeFileSync(file, content);
  const fd = fs.openSync(file, 'r');
  try {
    return await readLinePage(fd, { offset: 1, limit: 2000, maxBytes: 64 * 1024, wholeFileBytes: 16 << 20, shown: 'f.txt', ...options });
  } finally {
    fs.closeSync(fd);
  }
}

/** What file_read returned when it loaded the whole file (the behaviour the stream must keep). */
function wholeFileModel(text: string, offset: number, limit: number, maxBytes: number) {
  const lines = text.length === 0 ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const first = Math.min(offset, lines.length + 1);
  const selected: string[] = [];
  let bytes = 0;
  for (let n = first; n <= lines.length && selected.length < limit; n++) {
    const line = `${n}\t${lines[n - 1]}`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes && selected.length > 0) break;
    selected.push(line);
  }
  return { lines: selected, first, more: first + selected.length - 1 < lines.length, totalLines: lines.length };
}

describe(readLinePage, () => {
  it('pages exactly as the whole-file reading did, whatever the chunk size (property)', async () => {
    const line = fc.array(fc.constantFrom('a', 'z', 'é', '🙂', '\r', ' '), { maxLength: 12 }).map((chars) => chars.join(''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 16 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 260, max: 500 }),
        fc.integer({ min: 1, max: 64 }),
        async (lines, eol, trailing, offset, limit, maxBytes, chunkBytes) => {
          const text = lines.join(eol) + (trailing && lines.length > 0 ? eol : '');
          const expected = wholeFileModel(text, offset, limit, maxBytes);
          const actual = await page(text, { offset, limit, maxBytes, chunkBytes });
          expect({ lines: actual.lines, first: actual.first, more: actual.more, totalLines: actual.totalLines }).toEqual(expected);
          expect(actual.hash).toMatch(/^[0-9a-f]{64}$/);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('stops at the page on files over the whole-file size, leaving total and hash out', async () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(await page(text, { limit: 2, wholeFileBytes: 10, chunkBytes: 16 })).toEqual({ lines: ['1\tline 1', '2\tline 2'], first: 1, more: true });
    expect(await page('only\n', { limit: 1, wholeFileBytes: 1 })).toEqual({ lines: ['1\tonly'], first: 1, more: false });
    expect(await page(text, { offset: 100, wholeFileBytes: 10 })).toMatchObject({ lines: ['100\tline 100'], more: false, totalLines: 100 });
  });

  it('cuts a line longer than the page, on a character boundary, and says so', async () => {
    const result = await page(`${'🙂'.repeat(100)}\nnext\n`, { maxBytes: 200, chunkBytes: 7 });
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/^1\t(🙂)+… \[line cut: only its first \d+ bytes are shown\]$/);
    expect(Buffer.byteLength(result.lines[0]!)).toBeLessThanOrEqual(200);
    expect(result).toMatchObject({ more: true, totalLines: 2 });
  });

  it('refuses binary content with the binary_file code', async () => {
    await expect(page(Buffer.from([0x61, 0x00, 0x62]), {})).rejects.toMatchObject({ code: 'binary_file' });
  });
});
