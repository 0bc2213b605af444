import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { textPage } from '../test-support/text-page.js';
import { FileEditTool, renderFileEdit } from './file-edit.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';
import { FileReadTool } from './file-read.js';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const SOURCE =
  'function greet(name) {\n  const greeting = "Hello";\n  return `${greeting}, ${name}`;\n}\n\nfunction part() {\n  return 1;\n}\nfunction part2() {\n  return 1;\n}\n';

describe('file_edit', () => {
  const edit = new FileEditTool(ws.env);
  const read = new FileReadTool(ws.env);
  beforeEach(() => {
    ws.write('app.js', SOURCE);
    ws.env.readHashes?.clear();
  });

  it('replaces a unique exact match and returns a unified diff', async () => {
    const result = await edit.fileEdit('app.js', '"Hello"', '"Hi"');
    expect(result).toMatchObject({ replacements: 1, matchedBy: 'exact' });
    expect(result.diff).toContain('-  const greeting = "Hello";\n+  const greeting = "Hi";');
    expect(ws.read('app.js')).toContain('const greeting = "Hi";');
  });

  it('renders a summary line and the diff', async () => {
    expect(renderFileEdit(await edit.fileEdit('app.js', '"Hello"', '"Hi"'))).toBe(
      [
        'Edited app.js: 1 replacement (matched exactly).',
        '===================================================================',
        '--- a/app.js',
        '+++ b/app.js',
        '@@ -1,5 +1,5 @@',
        ' function greet(name) {',
        '-  const greeting = "Hello";',
        '+  const greeting = "Hi";',
        '   return `${greeting}, ${name}`;',
        ' }',
        ' ',
      ].join('\n'),
    );
    expect(renderFileEdit(await edit.fileEdit('new.txt', '', 'x'))).toMatch(/^Created new\.txt\.\n/);
  });

  it('cuts a diff longer than the output budget at a line and says how many lines were left out', async () => {
    ws.write('long.txt', Array.from({ length: 400 }, (_, i) => `row ${i}`).join('\n'));
    const result = await withBudget(2_000, () => edit.fileEdit('long.txt', 'row', 'line', true));
    const text = renderFileEdit(result);
    expect(modelSize(text)).toBeLessThanOrEqual(2_000);
    ws.write('long.txt', Array.from({ length: 400 }, (_, i) => `row ${i}`).join('\n'));
    ws.env.readHashes?.clear();
    const whole = (await edit.fileEdit('long.txt', 'row', 'line', true)).diff;
    expect(whole.startsWith(result.diff) && result.diff.endsWith('\n')).toBe(true);
    expect(result.diff.split('\n').length - 1 + result.diffOmittedLines!).toBe(whole.split('\n').length - 1);
    expect(text.split('\n').at(-1)).toBe(`[${result.diffOmittedLines} more lines of the diff did not fit; read the file with file_read to review the change]`);
  });

  it('inserts the replacement literally: $& $1 $$ are not patterns', async () => {
    await edit.fileEdit('app.js', '"Hello"', '"$& $1 $$"');
    expect(ws.read('app.js')).toContain('const greeting = "$& $1 $$";');
    await edit.fileEdit('app.js', 'const gree(ting)', 'const [$1]', false, 'regex');
    expect(ws.read('app.js')).toContain('const [$1] = "$& $1 $$";');
  });

  it('refuses an ambiguous match with the line numbers, and replaces all when asked', async () => {
    await expect(edit.fileEdit('app.js', 'return 1;', 'return 2;')).rejects.toThrow(/occurs 2 times .*at lines 7, 10/);
    expect(await edit.fileEdit('app.js', 'return 1;', 'return 2;', true)).toMatchObject({ replacements: 2 });
  });

  it('forgives whitespace differences only when the exact match fails', async () => {
    const result = await edit.fileEdit('app.js', 'const greeting =   "Hello";\r\n      return `${greeting}, ${name}`;', 'return "hey";');
    expect(result.matchedBy).toBe('tolerant');
    expect(ws.read('app.js')).toContain('function greet(name) {\nreturn "hey";\n}');
  });

  it('shows the closest region of the file when nothing matches', async () => {
    await expect(edit.fileEdit('app.js', 'const greeting = "Howdy";', 'x')).rejects.toThrow(
      /closest part of the file is:\n\s+1\tfunction greet\(name\) \{\n\s+2\t {2}const greeting = "Hello";/,
    );
  });

  it('creates a file from an empty old text, but never overwrites one that way', async () => {
    expect(await edit.fileEdit('new/file.txt', '', 'fresh')).toMatchObject({ matchedBy: 'created' });
    expect(ws.read('new/file.txt')).toBe('fresh');
    await expect(edit.fileEdit('app.js', '', 'x')).rejects.toThrow('already exists');
  });

  it('refuses to edit a file that changed since the model read it', async () => {
    const { hash } = textPage(await read.fileRead('app.js'));
    ws.write('app.js', `${SOURCE}// changed by someone else\n`);
    await expect(edit.fileEdit('app.js', '"Hello"', '"Hi"')).rejects.toThrow('changed since you last read it');
    await expect(edit.fileEdit('app.js', '"Hello"', '"Hi"', false, 'exact', hash)).rejects.toThrow('changed since you last read it');
    await read.fileRead('app.js');
    expect((await edit.fileEdit('app.js', '"Hello"', '"Hi"')).replacements).toBe(1);
  });

  it('lets edits chain through the returned hash', async () => {
    const first = await edit.fileEdit('app.js', '"Hello"', '"Hi"');
    expect((await edit.fileEdit('app.js', '"Hi"', '"Yo"', false, 'exact', first.hash)).replacements).toBe(1);
  });

  it('refuses a file over 16 MiB with the limit in the message', async () => {
    ws.write('big.txt', 'start\n');
    fs.truncateSync(path.join(ws.root, 'big.txt'), 300 * 1024 * 1024);
    await expect(edit.fileEdit('big.txt', 'start', 'x')).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringMatching(/300 MiB; file_edit edits files up to 16 MiB/),
    });
  });

  it('refuses a file that is not valid UTF-8 rather than corrupting it, and keeps a byte-order mark', async () => {
    ws.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await expect(edit.fileEdit('latin1.txt', 'caf', 'x')).rejects.toMatchObject({ code: 'binary_file' });
    expect(fs.readFileSync(path.join(ws.root, 'latin1.txt'))).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    ws.write('bom.txt', '\ufeffhello\n');
    await edit.fileEdit('bom.txt', 'hello', 'bye');
    expect(ws.read('bom.txt')).toBe('\ufeffbye\n');
  });

  it('keeps the WorkspaceError code of path refusals', async () => {
    await expect(edit.fileEdit('../x.txt', 'a', 'b')).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(edit.fileEdit('missing.txt', 'a', 'b')).rejects.toMatchObject({ code: 'not_found' });
    await expect(edit.fileEdit('app.js', '', 'x')).rejects.toMatchObject({ code: 'already_exists' });
  });

  it('reports invalid regular expressions and empty-matching ones', async () => {
    await expect(edit.fileEdit('app.js', '(', 'x', false, 'regex')).rejects.toThrow('not a valid regular expression');
    await expect(edit.fileEdit('app.js', 'z*', 'x', false, 'regex')).rejects.toThrow('matches empty text');
  });

  it('stops a regex that backtracks catastrophically with a clear error, leaving the file as it was', async () => {
    ws.write('as.txt', `${'a'.repeat(30)}!\n${'a'.repeat(30)}\n`);
    await expect(edit.fileEdit('as.txt', '^(a+)+$', 'x', true, 'regex')).rejects.toMatchObject({
      code: 'pattern_too_slow',
      message: expect.stringMatching(/^The pattern took longer than 1 s and was stopped: .*Simplify it, or use mode: "exact" with the literal text\.$/),
    });
    expect(ws.read('as.txt')).toBe(`${'a'.repeat(30)}!\n${'a'.repeat(30)}\n`);
  });

  it('answers a long needle against a huge repetitive file at once: no match, and the closest part is not searched for', async () => {
    ws.write('rep.txt', 'a\n'.repeat(1_000_000));
    await expect(edit.fileEdit('rep.txt', `${' a\n'.repeat(3000)}b`, 'x')).rejects.toThrow(
      /not found in 'rep.txt' \(not even when ignoring whitespace differences\)\. The file repeats the lines of `oldText` too often to show the closest part/,
    );
  });

  it('still forgives whitespace in a huge repetitive file', async () => {
    ws.write('rep2.txt', `${'a\n'.repeat(200_000)}b\n`);
    const result = await edit.fileEdit('rep2.txt', `${' a\n'.repeat(3000)}b`, 'x');
    expect(result).toMatchObject({ matchedBy: 'tolerant', replacements: 1 });
    expect(ws.read('rep2.txt')).toBe(`${'a\n'.repeat(197_000)}x\n`);
  });

  it('gives up on a diff too large to compute quickly and says so, after making the edit', async () => {
    ws.write('many.txt', 'a\n'.repeat(20_000));
    const result = await edit.fileEdit('many.txt', 'a', 'b', true);
    expect(result.replacements).toBe(20_000);
    expect(result.diff).toBe('(no diff: comparing the 20000 changes took longer than 1 s; read the file with file_read to review it)');
    expect(ws.read('many.txt')).toBe('b\n'.repeat(20_000));
  });

  it('refuses a regex edit when the file changed while the pattern ran', async () => {
    ws.write('race.txt', 'one\ntwo\n');
    const editing = edit.fileEdit('race.txt', 't.o', 'TWO', false, 'regex');
    ws.write('race.txt', 'one\ntwo\nthree\n'); // lands while the regex worker runs
    await expect(editing).rejects.toThrow("'race.txt' changed while the edit was being prepared");
    expect(ws.read('race.txt')).toBe('one\ntwo\nthree\n');
  });
});
