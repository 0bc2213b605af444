import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { FileDeleteTool, renderFileDelete } from './file-delete.js';
import { FileWriteTool, renderFileWrite } from './file-write.js';

const ws = tempWorkspace({ 'keep.txt': 'old', 'dir/a.txt': 'a', 'empty/.keep': '' });
fs.mkdirSync(path.join(ws.root, 'empty-dir'));
fs.symlinkSync(path.join(ws.root, 'keep.txt'), path.join(ws.root, 'link-to-keep'));
fs.symlinkSync('/etc/hostname', path.join(ws.root, 'link-out'));
afterAll(() => ws.cleanup());

describe('file_write', () => {
  const tool = new FileWriteTool(ws.env);

  it('creates files and parent directories, and overwrites atomically', async () => {
    expect(await tool.fileWrite('new/deep/file.txt', 'héllo')).toEqual({ path: 'new/deep/file.txt', bytes: 6, created: true });
    expect(ws.read('new/deep/file.txt')).toBe('héllo');
    expect(await tool.fileWrite('keep.txt', 'new')).toMatchObject({ created: false });
    expect(ws.read('keep.txt')).toBe('new');
    expect(fs.readdirSync(ws.root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('renders what was written as a sentence', () => {
    expect(renderFileWrite({ path: 'notes.md', bytes: 12, created: true })).toBe('Wrote 12 bytes to notes.md (a new file).');
    expect(renderFileWrite({ path: 'notes.md', bytes: 3, created: false })).toBe('Wrote 3 bytes to notes.md (its previous content replaced).');
  });

  it('refuses to write through symlinks, outside the workspace, or onto a directory', async () => {
    await expect(tool.fileWrite('link-out', 'x')).rejects.toMatchObject({ code: 'symlink_escape' });
    await expect(tool.fileWrite('../escape.txt', 'x')).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(tool.fileWrite('dir', 'x')).rejects.toMatchObject({ code: 'not_a_file' });
  });
});

describe('file_delete', () => {
  const tool = new FileDeleteTool(ws.env);

  it('deletes a file, and a symlink itself (never its target)', async () => {
    expect(await tool.fileDelete('link-to-keep')).toEqual({ path: 'link-to-keep', kind: 'symlink' });
    expect(fs.existsSync(path.join(ws.root, 'keep.txt'))).toBe(true);
    expect(await tool.fileDelete('link-out')).toEqual({ path: 'link-out', kind: 'symlink' });
    expect(fs.existsSync('/etc/hostname')).toBe(true);
    expect(await tool.fileDelete('keep.txt')).toEqual({ path: 'keep.txt', kind: 'file' });
  });

  it('renders what was deleted as a sentence', () => {
    expect(renderFileDelete({ path: 'a.txt', kind: 'file' })).toBe('Deleted the file a.txt.');
    expect(renderFileDelete({ path: 'dir', kind: 'directory' })).toBe('Deleted the directory dir.');
    expect(renderFileDelete({ path: 'link', kind: 'symlink' })).toBe('Deleted the symbolic link link (its target is untouched).');
  });

  it('needs recursive for a non-empty directory, deletes an empty one without it', async () => {
    await expect(tool.fileDelete('dir')).rejects.toThrow('recursive: true');
    expect(await tool.fileDelete('empty-dir')).toEqual({ path: 'empty-dir', kind: 'directory' });
    expect(await tool.fileDelete('dir', true)).toEqual({ path: 'dir', kind: 'directory' });
  });

  it('never deletes the workspace root, nor anything outside it', async () => {
    await expect(tool.fileDelete('.', true)).rejects.toMatchObject({ code: 'workspace_root' });
    await expect(tool.fileDelete(ws.root, true)).rejects.toMatchObject({ code: 'workspace_root' });
    await expect(tool.fileDelete('/', true)).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(tool.fileDelete('..', true)).rejects.toMatchObject({ code: 'outside_workspace' });
    await expect(tool.fileDelete('missing.txt')).rejects.toMatchObject({ code: 'not_found' });
  });
});
