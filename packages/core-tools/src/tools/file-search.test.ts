import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { confirmReportedLines, findRipgrep } from '../search/ripgrep-search.js';
import { CATASTROPHIC } from '../test-support/catastrophic-patterns.js';
import { FileSearchTool, renderFileSearch } from './file-search.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';

const ws = tempWorkspace({
  'src/load.ts': 'export function loadConfig() {}\nconst x = 1;\nexport function LoadAll() {}\n',
  'src/deep/util.ts': 'function load() {}\n// TODO: load more\n',
  'src/notes.md': 'Loading notes\n$1 and $& are literal here\n',
  'README.md': 'load the config\n',
  '.hidden/config.ts': 'function loadHidden() {}\n',
  'dist/bundle.js': 'function load() {}\n',
  '.gitignore': 'dist/\n',
  'bin.dat': Buffer.from('load\0binary'),
  '.git/HEAD': 'load ref\n',
  '.toolwright/audit.jsonl': '{"load":1}\n',
});
fs.symlinkSync('/etc', path.join(ws.root, 'etc-link'));
afterAll(() => ws.cleanup());

const builtin = new FileSearchTool({ ...ws.env, ripgrep: false });
const rg = findRipgrep();

describe('file_search (built-in engine)', () => {
  it('finds matching lines sorted by path and line, honouring .gitignore and skipping .git, binaries and symlinks', async () => {
    const result = await builtin.fileSearch('function load');
    expect(result.engine).toBe('builtin');
    expect(result.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['.hidden/config.ts:1', 'src/deep/util.ts:1', 'src/load.ts:1', 'src/load.ts:3']);
    expect(result).toMatchObject({ files: 3, truncated: false });
  });

  it('uses smart case: a capital letter makes the search case-sensitive', async () => {
    expect((await builtin.fileSearch('LoadAll')).matches.map((m) => m.line)).toEqual([3]);
    expect((await builtin.fileSearch('loadall')).matches.length).toBe(1);
    expect((await builtin.fileSearch('loadall', '.', false, 'sensitive')).matches.length).toBe(0);
  });

  it('searches literal text, with regex characters taken as they are', async () => {
    const result = await builtin.fileSearch('$1 and $&', '.', true);
    expect(result.matches).toEqual([{ path: 'src/notes.md', line: 2, text: '$1 and $& are literal here' }]);
  });

  it('filters with include and exclude globs and returns context lines', async () => {
    const result = await builtin.fileSearch('load', 'src', false, 'smart', ['*.ts'], ['deep/**'], 1);
    expect(result.matches[0]).toEqual({ path: 'load.ts', line: 1, text: 'export function loadConfig() {}', before: [], after: ['const x = 1;'] });
    expect(result.matches.every((m) => m.path === 'load.ts')).toBe(true);
  });

  it('caps the results and says so', async () => {
    const result = await builtin.fileSearch('load', '.', false, 'smart', [], [], 0, 2);
    expect(result).toMatchObject({ truncated: true });
    expect(result.matches).toHaveLength(2);
  });

  it('renders matches under their file as line:text, context as line-text shown once, groups apart', async () => {
    expect(renderFileSearch(await builtin.fileSearch('LoadAll'))).toBe('src/load.ts\n3:export function LoadAll() {}');
    expect(renderFileSearch(await builtin.fileSearch('load', 'src', false, 'smart', ['*.ts'], ['deep/**'], 1))).toBe(
      'load.ts\n1:export function loadConfig() {}\n2-const x = 1;\n3:export function LoadAll() {}\n4-',
    );
    expect(
      renderFileSearch({
        matches: [
          { path: 'a.ts', line: 2, text: 'x', before: ['w'], after: [] },
          { path: 'a.ts', line: 9, text: 'y', before: ['v'], after: [] },
        ],
        files: 1,
        truncated: false,
        offset: 1,
        engine: 'builtin',
      }),
    ).toBe('a.ts\n1-w\n2:x\n--\n8-v\n9:y');
    expect(renderFileSearch(await builtin.fileSearch('nothing-matches-this'))).toBe('[no matches]');
    expect(renderFileSearch(await builtin.fileSearch('load', '.', false, 'smart', [], [], 0, 2))).toBe(
      '.hidden/config.ts\n1:function loadHidden() {}\n\nREADME.md\n1:load the config\n[matches 1–2 shown; more matched (in 5 files in all): read on with offset 3, or narrow the search]',
    );
  });

  it('returns no more matches than fit the output budget and reads on from the offset it gives, never losing one', async () => {
    const many = tempWorkspace({ 'a.txt': Array.from({ length: 500 }, (_, i) => `needle ${i + 1}`).join('\n'), 'b.txt': 'needle in b\n' });
    try {
      const tool = new FileSearchTool({ ...many.env, ripgrep: false });
      const seen: string[] = [];
      let offset = 1;
      for (;;) {
        const result = await withBudget(1_500, () => tool.fileSearch('needle', '.', false, 'smart', [], [], 0, 5000, offset));
        const text = renderFileSearch(result);
        expect(modelSize(text)).toBeLessThanOrEqual(1_500);
        seen.push(...result.matches.map((m) => m.text));
        if (!result.truncated) break;
        expect(text.split('\n').at(-1)).toBe(
          `[matches ${offset}–${offset + result.matches.length - 1} shown; more matched (in 2 files in all): read on with offset ${offset + result.matches.length}, or narrow the search]`,
        );
        offset += result.matches.length;
      }
      expect(seen).toEqual([...Array.from({ length: 500 }, (_, i) => `needle ${i + 1}`), 'needle in b']);
    } finally {
      many.cleanup();
    }
  });

  it('refuses an invalid regex with a hint, and paths outside the workspace', async () => {
    await expect(builtin.fileSearch('func(')).rejects.toThrow(/not a valid regular expression.*literal: true/s);
    await expect(builtin.fileSearch('x', '../')).rejects.toThrow(/outside/);
    await expect(builtin.fileSearch('x', 'etc-link')).rejects.toThrow(/outside|link/);
  });
});

describe.runIf(rg)('file_search: ripgrep and the built-in engine agree', () => {
  const ripgrep = new FileSearchTool({ ...ws.env, ripgrep: rg as string });
  it.each([['function load'], ['load'], ['LoadAll'], ['^export'], ['\\d'], ['TODO|notes'], ['[A-Z]\\w+']])('%s', async (pattern) => {
    const a = await ripgrep.fileSearch(pattern, '.', false, 'smart', [], [], 1);
    const b = await builtin.fileSearch(pattern, '.', false, 'smart', [], [], 1);
    expect(a.engine).toBe('ripgrep');
    expect({ ...a, engine: 'x' }).toEqual({ ...b, engine: 'x' });
  });

  it('agrees with include/exclude globs and literal mode', async () => {
    const args: Parameters<FileSearchTool['fileSearch']> = ['load', '.', true, 'insensitive', ['*.ts', '*.md'], ['src/deep/**']];
    const a = await ripgrep.fileSearch(...args);
    const b = await builtin.fileSearch(...args);
    expect(a.matches).toEqual(b.matches);
    expect(a.matches.length).toBeGreaterThan(0);
  });

  it('falls back to the built-in engine for patterns ripgrep cannot run', async () => {
    const result = await ripgrep.fileSearch('load(?=Config)');
    expect(result.engine).toBe('builtin');
    expect(result.matches.map((m) => m.path)).toEqual(['src/load.ts']);
  });
});

describe('file_search: files over the size limit', () => {
  const big = tempWorkspace({ 'small.txt': 'needle\n', 'huge.log': 'needle\n' });
  fs.truncateSync(path.join(big.root, 'huge.log'), 11 * 1024 * 1024);
  afterAll(() => big.cleanup());

  it('skips them in the built-in engine and says which, with the limit', async () => {
    const result = await new FileSearchTool({ ...big.env, ripgrep: false }).fileSearch('needle');
    expect(result.matches.map((m) => m.path)).toEqual(['small.txt']);
    expect(result.note).toBe('1 file was not searched because it is over the 10 MiB limit: huge.log. Read it in parts with file_read.');
  });

  it('reads no context from a file that grew past the limit after the search', async () => {
    const result = await new FileSearchTool({ ...big.env, ripgrep: false }).fileSearch('needle', '.', false, 'smart', [], [], 1);
    expect(result.matches[0]).toMatchObject({ path: 'small.txt', before: [], after: [''] });
  });
});

describe(confirmReportedLines, () => {
  it('keeps only the reported lines the file really holds at their byte offsets', () => {
    const lines = [
      { line: 1, offset: 0, text: 'export function loadConfig() {}' },
      { line: 3, offset: 45, text: 'export function LoadAll() {}' },
      { line: 2, offset: 32, text: 'SECRET read through a swapped link' },
      { line: 1, text: 'no offset' },
    ];
    expect(confirmReportedLines(ws.root, 'src/load.ts', lines, 1 << 20).map((l) => l.line)).toEqual([1, 3]);
    expect(confirmReportedLines(ws.root, 'etc-link/hostname', lines, 1 << 20)).toEqual([]);
  });
});

describe('file_search: patterns that backtrack catastrophically', () => {
  const slow = tempWorkspace({ 'a.txt': `${'a'.repeat(35)}\n`, 'b.txt': `${'a'.repeat(40)}!\n` });
  afterAll(() => slow.cleanup());

  it.for(CATASTROPHIC)('answers %s with a clear error instead of freezing the process', async ([pattern, text]) => {
    slow.write('c.txt', `${text}\n`);
    await expect(new FileSearchTool({ ...slow.env, ripgrep: false }).fileSearch(pattern, '.', false, 'sensitive')).rejects.toThrow(
      /^The pattern took longer than 1 s and was stopped: it backtracks too much .*Simplify it, or search for plain text with literal: true\.$/,
    );
  });

  it.runIf(rg)('answers the same when ripgrep refuses the pattern and the built-in engine runs it', async () => {
    await expect(new FileSearchTool({ ...slow.env, ripgrep: rg as string }).fileSearch('^(a+)+(?=b)')).rejects.toMatchObject({ code: 'pattern_too_slow' });
  });

  it('still searches literally for the same text', async () => {
    const result = await new FileSearchTool({ ...slow.env, ripgrep: false }).fileSearch('^(a+)+(?=b)', '.', true);
    expect(result.matches).toEqual([]);
  });
});
