import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { FileListTool } from './file-list.js';
import { GlobTool } from './glob.js';

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

  it('refuses an empty pattern', async () => {
    await expect(glob.glob('  ')).rejects.toThrow('The pattern is empty');
  });
});
