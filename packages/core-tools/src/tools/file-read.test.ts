import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { FileReadTool } from './file-read.js';

let root: string;
let tool: FileReadTool;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-read-')));
  fs.writeFileSync(path.join(root, 'five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  fs.writeFileSync(path.join(root, 'crlf.txt'), 'a\r\nb\r\n');
  fs.writeFileSync(path.join(root, 'empty.txt'), '');
  fs.writeFileSync(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
  fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
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
    const result = await tool.fileRead('five.txt');
    expect(result).toMatchObject({ content: '1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive', startLine: 1, endLine: 5, totalLines: 5, truncated: false });
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pages with offset and limit and says how to continue', async () => {
    const result = await tool.fileRead('five.txt', 2, 2);
    expect(result).toMatchObject({ content: '2\ttwo\n3\tthree', startLine: 2, endLine: 3, truncated: true, next: 'file_read with path "five.txt" and offset 4' });
  });

  it('handles CRLF, empty files and offsets past the end', async () => {
    expect((await tool.fileRead('crlf.txt')).content).toBe('1\ta\n2\tb');
    expect(await tool.fileRead('empty.txt')).toMatchObject({ content: '', totalLines: 0, endLine: 0, truncated: false });
    expect(await tool.fileRead('five.txt', 99)).toMatchObject({ content: '', truncated: false });
  });

  it('caps the bytes returned and tells the model where to continue', async () => {
    const result = await tool.fileRead('big.txt');
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(64 * 1024);
    expect(result.truncated).toBe(true);
    expect(result.next).toBe(`file_read with path "big.txt" and offset ${result.endLine + 1}`);
  });

  it('refuses binary files and invalid UTF-8 with a clear message', async () => {
    await expect(tool.fileRead('image.png')).rejects.toThrow("'image.png' is a binary file");
    await expect(tool.fileRead('latin1.txt')).rejects.toThrow('binary file');
  });

  it('does not mistake a multi-byte character cut at the sniff boundary for binary', async () => {
    expect((await tool.fileRead('emoji.txt')).totalLines).toBe(1);
  });

  it('reads the first lines of a 5 GiB file without reading the rest, leaving total and hash out', async () => {
    const result = await tool.fileRead('huge.log', 1, 2);
    expect(result).toEqual({ content: '1\tentry         1\n2\tentry         2', startLine: 1, endLine: 2, truncated: true, next: 'file_read with path "huge.log" and offset 3' });
    expect((await tool.fileRead('huge.log', 1000, 1)).content).toBe('1000\tentry      1000');
  });

  it('refuses paths outside the workspace and directories', async () => {
    await expect(tool.fileRead('../etc/passwd')).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(tool.fileRead('.')).rejects.toMatchObject({ code: 'not_a_file' });
    await expect(tool.fileRead('missing.txt')).rejects.toMatchObject({ code: 'not_found' });
  });
});
