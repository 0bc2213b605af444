import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { FileListTool, renderFileList } from './file-list.js';
import { GlobTool, renderGlob } from './glob.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';

const ws = tempWorkspace({
  '.gitignore': 'dist/\n*.log\n',
  'src/index.ts': 'export {}',
  'src/util/strings.ts': 'x',
  'src/util/.gitignore': 'generated.ts\n',
  'src/util/generated.ts': 'g',
  'dist/index.js': 'built',
  'debug.log': 'noise',
  'README.md': '# readme',
  '.git/HEAD': 'ref',
});
fs.symlinkSync('/etc', path.join(ws.root, 'etc-link'));
afterAll(() => ws.cleanup());

describe('file_list', () => {
  const list = new FileListTool(ws.env);

  it('lists direct children with kind and size, honouring .gitignore and skipping .git', async () => {
    const { entries, truncated } = await list.fileList();
    expect(entries).toEqual([
      { path: '.gitignore', kind: 'file', size: 12 },
      { path: 'README.md', kind: 'file', size: 8 },
      { path: 'etc-link', kind: 'symlink', size: 0 },
      { path: 'src/', kind: 'directory', size: 0 },
    ]);
    expect(truncated).toBe(false);
  });

  it('descends with depth, applies nested .gitignore files and extra excludes', async () => {
    const { entries } = await list.fileList('src', 3, ['strings.ts']);
    expect(entries.map((e) => e.path)).toEqual(['index.ts', 'util/', 'util/.gitignore']);
  });

  it('caps the number of entries', async () => {
    expect(await list.fileList('.', 5, [], 2)).toMatchObject({ truncated: true, entries: expect.any(Array) });
    expect((await list.fileList('.', 5, [], 2)).entries).toHaveLength(2);
  });

  it('renders one line per entry, and says when the limit stopped the listing', async () => {
    expect(renderFileList(await list.fileList())).toBe('.gitignore  (12 bytes)\nREADME.md  (8 bytes)\netc-link  (symbolic link)\nsrc/');
    expect(renderFileList(await list.fileList('.', 5, [], 2))).toBe(
      '.gitignore  (12 bytes)\nREADME.md  (8 bytes)\n[the listing stopped at 2 entries (the limit); more exist: raise limit, list a subdirectory (path) or leave entries out with exclude]',
    );
    expect(renderFileList(await list.fileList('src', 1, ['*']))).toBe('[no entries: the directory is empty, or everything in it is ignored or excluded]');
  });

  it('returns no more entries than fit the output budget and says how many were left out', async () => {
    const many = tempWorkspace(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`dir/file-${String(i).padStart(3, '0')}.txt`, 'x'])));
    try {
      const result = await withBudget(1_000, () => new FileListTool(many.env).fileList('dir'));
      const text = renderFileList(result);
      expect(modelSize(text)).toBeLessThanOrEqual(1_000);
      expect(result.entries.length + result.omitted!).toBe(300);
      expect(result.entries.at(-1)!.path).toBe(`file-${String(result.entries.length - 1).padStart(3, '0')}.txt`);
      expect(text.split('\n').at(-1)).toBe(
        `[${result.entries.length} of 300 entries shown; the rest did not fit: list a subdirectory (path) or leave entries out with exclude]`,
      );
    } finally {
      many.cleanup();
    }
  });

  it('refuses files and paths outside the workspace', async () => {
    await expect(list.fileList('README.md')).rejects.toMatchObject({ code: 'not_a_directory' });
    await expect(list.fileList('etc-link')).rejects.toMatchObject({ code: 'symlink_escape' });
    await expect(list.fileList('..')).rejects.toMatchObject({ code: 'outside_workspace' });
  });
});

describe('glob', () => {
  const glob = new GlobTool(ws.env);

  it('matches across segments, newest first, skipping ignored files', async () => {
    const now = Date.now() / 1000;
    fs.utimesSync(path.join(ws.root, 'src/index.ts'), now - 100, now - 100);
    fs.utimesSync(path.join(ws.root, 'src/util/strings.ts'), now, now);
    expect((await glob.glob('**/*.ts')).files).toEqual(['src/util/strings.ts', 'src/index.ts']);
    expect((await glob.glob('*.md')).files).toEqual(['README.md']);
    expect((await glob.glob('**/*.{md,log}')).files).toEqual(['README.md']);
  });

  it('searches below a directory and caps results', async () => {
    expect((await glob.glob('*.ts', 'src')).files).toEqual(['index.ts']);
    expect(await glob.glob('**/*', '.', 1)).toMatchObject({ files: [expect.any(String)], truncated: true });
  });

  it('renders one path per line, and fits the output budget saying what was left out', async () => {
    expect(renderGlob(await glob.glob('*.md'))).toBe('README.md');
    expect(renderGlob(await glob.glob('*.none'))).toBe('[no files match]');
    expect(renderGlob(await glob.glob('**/*.ts', '.', 1))).toBe(
      'src/util/strings.ts\n[the first 1 matching paths (the limit), newest first; more matched: raise limit or narrow the pattern or search a subdirectory (path)]',
    );
    const many = tempWorkspace(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, 'x'])));
    try {
      const result = await withBudget(500, () => new GlobTool(many.env).glob('*.txt'));
      expect(modelSize(renderGlob(result))).toBeLessThanOrEqual(500);
      expect(result).toMatchObject({ truncated: true, omitted: 300 - result.files.length });
      expect(renderGlob(result).split('\n').at(-1)).toBe(
        `[${result.files.length} of 300 matching paths shown, newest first; the rest did not fit: narrow the pattern or search a subdirectory (path)]`,
      );
    } finally {
      many.cleanup();
    }
  });

  it('refuses an empty pattern', async () => {
    await expect(glob.glob('  ')).rejects.toThrow('The pattern is empty');
  });
});
