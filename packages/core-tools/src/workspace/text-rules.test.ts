import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { textPage } from '../test-support/text-page.js';
import { FileDeleteTool } from '../tools/file-delete.js';
import { FileEditTool } from '../tools/file-edit.js';
import { FileListTool } from '../tools/file-list.js';
import { FileReadTool } from '../tools/file-read.js';
import { FileWriteTool } from '../tools/file-write.js';
import { isWellFormed } from './text-rules.js';
import { WorkspaceError } from './workspace-error.js';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const ws = tempWorkspace({ 'existing.txt': 'hello\n', 'dir/keep.txt': 'keep\n' });
// A name with a bidi control that exists already (made by someone else) can still be read.
fs.writeFileSync(`${ws.root}/legacy\u202etxt.exe`, 'legacy\n');
afterAll(() => ws.cleanup());

const write = new FileWriteTool(ws.env);
const edit = new FileEditTool(ws.env);
const read = new FileReadTool(ws.env);
const list = new FileListTool(ws.env);
const remove = new FileDeleteTool(ws.env);

/** A short ASCII name with `inserted` placed somewhere in it. */
const nameWith = (inserted: fc.Arbitrary<string>) =>
  fc.tuple(fc.stringMatching(/^[a-z]{0,4}$/), inserted, fc.stringMatching(/^[a-z.]{0,4}$/)).map(([a, b, c]) => `${a}${b}${c}`);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof WorkspaceError) return error.code;
    throw error;
  }
}

function entries(): string[] {
  return fs.readdirSync(ws.root, { recursive: true }).map(String).sort();
}

describe('deceptive names and text', () => {
  it('refuses to create files or directories whose names hold bidi controls, and creates nothing (property)', async () => {
    const before = entries();
    await fc.assert(
      fc.asyncProperty(nameWith(fc.constantFrom(...BIDI, '\u2028', '\u2029', '\u009b')), fc.constantFrom('file', 'parent', 'edit'), async (name, where) => {
        const target = where === 'parent' ? `new-${name}/f.txt` : `${name}.txt`;
        const code = where === 'edit' ? await codeOf(() => edit.fileEdit(target, '', 'x')) : await codeOf(() => write.fileWrite(target, 'x'));
        expect(code).toBe('invalid_path');
      }),
      { numRuns: 300 },
    );
    expect(entries()).toEqual(before);
  });

  it('names the refused character in the message', async () => {
    await expect(write.fileWrite('invoice\u202efdp.exe', 'x')).rejects.toThrow(/U\+202E/);
  });

  it('refuses a lone surrogate in any path, read or write (property)', async () => {
    const before = entries();
    await fc.assert(
      fc.asyncProperty(nameWith(loneSurrogate), fc.constantFrom('write', 'read', 'list', 'delete', 'edit'), async (name, how) => {
        const calls: Record<string, () => Promise<unknown>> = {
          write: () => write.fileWrite(name, 'x'),
          read: () => read.fileRead(name),
          list: () => list.fileList(name),
          delete: () => remove.fileDelete(name),
          edit: () => edit.fileEdit(`dir/${name}`, '', 'x'),
        };
        expect(await codeOf(calls[how]!)).toBe('invalid_path');
      }),
      { numRuns: 300 },
    );
    expect(entries()).toEqual(before);
  });

  it('refuses written text holding a lone surrogate instead of writing U+FFFD (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), loneSurrogate, fc.string({ maxLength: 20 }), async (a, lone, b) => {
        const content = `${a}${lone}${b}`;
        expect(await codeOf(() => write.fileWrite('content.txt', content))).toBe('invalid_content');
        expect(await codeOf(() => edit.fileEdit('existing.txt', 'hello', content))).toBe('invalid_content');
        expect(await codeOf(() => edit.fileEdit('created.txt', '', content))).toBe('invalid_content');
      }),
      { numRuns: 200 },
    );
    expect(fs.existsSync(`${ws.root}/content.txt`)).toBe(false);
    expect(fs.existsSync(`${ws.root}/created.txt`)).toBe(false);
    expect(ws.read('existing.txt')).toBe('hello\n');
  });

  it('refuses a regex edit that would split a surrogate pair', async () => {
    ws.write('emoji.txt', 'a🙂b\n');
    await expect(edit.fileEdit('emoji.txt', '\\ud83d', 'x', false, 'regex')).rejects.toMatchObject({ code: 'invalid_content' });
    expect(ws.read('emoji.txt')).toBe('a🙂b\n');
  });

  it('still writes well-formed text with astral characters and joiners, and reads existing odd names', async () => {
    expect(await write.fileWrite('family-👨‍👩‍👧.txt', '🙂 é\n')).toMatchObject({ created: true });
    expect(textPage(await read.fileRead('legacy\u202etxt.exe')).content).toBe('1\tlegacy');
    expect(isWellFormed('🙂')).toBe(true);
    expect(isWellFormed('\ud83d')).toBe(false);
  });
});
