import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { FileReadTool, renderFileRead } from './file-read.js';
import { textPage } from '../test-support/text-page.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';
import { isToolContent, type ToolContent } from '@toolwright/tool';

let root: string;
let tool: FileReadTool;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-read-')));
  fs.writeFileSync(path.join(root, 'five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  fs.writeFileSync(path.join(root, 'crlf.txt'), 'a\r\nb\r\n');
  fs.writeFileSync(path.join(root, 'empty.txt'), '');
  fs.writeFileSync(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
  fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  fs.writeFileSync(path.join(root, 'long.ts'), Array.from({ length: 3000 }, (_, i) => `const line${i + 1} = "${'é'.repeat(i % 7)}\u001b";`).join('\n'));
  fs.writeFileSync(path.join(root, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n'));
  fs.writeFileSync(path.join(root, 'emoji.txt'), `${'🙂'.repeat(2047)}\n`);
  // 16 KiB of text, then a hole up to 5 GiB: far past what a Buffer (or a string) can hold.
  fs.writeFileSync(path.join(root, 'huge.log'), Array.from({ length: 1024 }, (_, i) => `entry ${String(i + 1).padStart(9)}`).join('\n'));
  fs.truncateSync(path.join(root, 'huge.log'), 5 * 1024 ** 3);
  tool = new FileReadTool({ workspace: new WorkspacePolicy({ root }) });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('file_read', () => {
  it('returns numbered lines and the file hash', async () => {
    const result = textPage(await tool.fileRead('five.txt'));
    expect(result).toMatchObject({ content: '1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive', startLine: 1, endLine: 5, totalLines: 5, truncated: false });
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pages with offset and limit and says how to continue', async () => {
    const result = textPage(await tool.fileRead('five.txt', 2, 2));
    expect(result).toMatchObject({
      content: '2\ttwo\n3\tthree',
      startLine: 2,
      endLine: 3,
      truncated: true,
      next: 'file_read with path "five.txt" and offset 4',
    });
  });

  it('handles CRLF, empty files and offsets past the end', async () => {
    expect(textPage(await tool.fileRead('crlf.txt')).content).toBe('1\ta\n2\tb');
    expect(await tool.fileRead('empty.txt')).toMatchObject({ content: '', totalLines: 0, endLine: 0, truncated: false });
    expect(await tool.fileRead('five.txt', 99)).toMatchObject({ content: '', truncated: false });
  });

  it('caps the text returned at the default budget outside an executor and tells the model where to continue', async () => {
    const result = textPage(await tool.fileRead('big.txt'));
    expect(modelSize(renderFileRead(result))).toBeLessThanOrEqual(16 * 1024);
    expect(result.truncated).toBe(true);
    expect(result.next).toBe(`file_read with path "big.txt" and offset ${result.endLine + 1}`);
  });

  it.for([600, 2_000, 16 * 1024])('returns at most a budget of %i and reads on from where it stopped, never losing a line', async (budget) => {
    const seen: number[] = [];
    let offset = 1;
    for (;;) {
      const page = textPage(await withBudget(budget, () => tool.fileRead('long.ts', offset)));
      const text = renderFileRead(page);
      expect(modelSize(text)).toBeLessThanOrEqual(budget);
      const numbers = page.content.split('\n').map((line) => Number(line.slice(0, line.indexOf('\t'))));
      seen.push(...numbers);
      if (!page.truncated) {
        expect(text.split('\n').at(-1)).toBe(`[lines ${page.startLine}–3000 of 3000; this is the end of the file]`);
        break;
      }
      expect(text.split('\n').at(-1)).toBe(`[lines ${page.startLine}–${page.endLine} of 3000; read on with offset ${page.endLine + 1}]`);
      offset = page.endLine + 1;
    }
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
  });

  it('renders numbered lines as plain text, with a line saying where the page ends', async () => {
    expect(renderFileRead(await tool.fileRead('five.txt'))).toBe('1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive');
    expect(renderFileRead(await tool.fileRead('five.txt', 2, 2))).toBe('2\ttwo\n3\tthree\n[lines 2–3 of 5; read on with offset 4]');
    expect(renderFileRead(await tool.fileRead('five.txt', 4))).toBe('4\tfour\n5\tfive\n[lines 4–5 of 5; this is the end of the file]');
    expect(renderFileRead(await tool.fileRead('five.txt', 99))).toBe('[the file has 5 lines; there are none from line 6 on]');
    expect(renderFileRead(await tool.fileRead('empty.txt'))).toBe('[the file is empty]');
    expect(renderFileRead(await tool.fileRead('huge.log', 1, 2))).toBe(
      '1\tentry         1\n2\tentry         2\n[lines 1–2 of a file over 16 MiB, not counted; read on with offset 3]',
    );
  });

  it('returns an image (known by its first bytes) as the image, up to 5 MiB', async () => {
    const result = await tool.fileRead('image.png');
    expect(isToolContent(result)).toBe(true);
    expect((result as ToolContent).blocks).toEqual([
      { type: 'text', text: 'image.png: image/png, 10 bytes' },
      { type: 'image', data: fs.readFileSync(path.join(root, 'image.png')).toString('base64'), mimeType: 'image/png' },
    ]);
    const jpeg = path.join(root, 'photo.txt'); // the name does not decide: the bytes do
    fs.writeFileSync(jpeg, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]));
    expect(((await tool.fileRead('photo.txt')) as ToolContent).blocks[1]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const large = path.join(root, 'large.png');
    fs.writeFileSync(large, fs.readFileSync(path.join(root, 'image.png')));
    fs.truncateSync(large, 6 * 1024 * 1024);
    await expect(tool.fileRead('large.png')).rejects.toThrow('large.png is an image (image/png) of 6.0 MiB, over the 5 MiB file_read shows');
  });

  it('refuses binary files and invalid UTF-8 with a clear message', async () => {
    fs.writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0x00, 0x01, 0x02, 0x89, 0x50]));
    await expect(tool.fileRead('blob.bin')).rejects.toThrow("'blob.bin' is a binary file");
    await expect(tool.fileRead('latin1.txt')).rejects.toThrow('binary file');
  });

  it('does not mistake a multi-byte character cut at the sniff boundary for binary', async () => {
    expect(textPage(await tool.fileRead('emoji.txt')).totalLines).toBe(1);
  });

  it('reads the first lines of a 5 GiB file without reading the rest, leaving total and hash out', async () => {
    const result = await tool.fileRead('huge.log', 1, 2);
    expect(result).toEqual({
      content: '1\tentry         1\n2\tentry         2',
      startLine: 1,
      endLine: 2,
      truncated: true,
      next: 'file_read with path "huge.log" and offset 3',
    });
    expect(textPage(await tool.fileRead('huge.log', 1000, 1)).content).toBe('1000\tentry      1000');
  });

  it('refuses paths outside the workspace and directories', async () => {
    await expect(tool.fileRead('../etc/passwd')).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(tool.fileRead('.')).rejects.toMatchObject({ code: 'not_a_file' });
    await expect(tool.fileRead('missing.txt')).rejects.toMatchObject({ code: 'not_found' });
  });
});
