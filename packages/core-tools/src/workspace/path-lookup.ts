import fs from 'node:fs';
import path from 'node:path';
import { errnoOf } from './fs-error.js';
import { WorkspaceError } from './workspace-error.js';

// The file-system look-ups `WorkspacePolicy` makes about a path: its type, its existing prefix, a root.

/** `root`-relative, `/`-separated ('' for the root itself). */
export function toRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** Refuses special files, and a target (or parent) of the wrong kind. */
export function checkFileType(canonical: string, input: string, kind?: 'file' | 'directory', role: 'target' | 'parent' = 'target'): void {
  const stat = fs.lstatSync(canonical);
  if (stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice() || stat.isBlockDevice()) {
    throw new WorkspaceError(
      'special_file',
      `'${input}' is a ${stat.isFIFO() ? 'named pipe (FIFO)' : stat.isSocket() ? 'socket' : 'device'}, not a regular file; it is refused.`,
      input,
    );
  }
  if (role === 'parent' && !stat.isDirectory()) throw new WorkspaceError('not_a_directory', `A parent of '${input}' is a file, not a directory.`, input);
  if (kind === 'file' && !stat.isFile()) throw new WorkspaceError('not_a_file', `'${input}' is a directory, not a file.`, input);
  if (kind === 'directory' && !stat.isDirectory()) throw new WorkspaceError('not_a_directory', `'${input}' is not a directory.`, input);
}

/** lstat, or undefined when nothing is there (or a parent is not a directory). */
export function lstatOrUndefined(absolute: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(absolute);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** realpath of the deepest existing prefix of an absolute path, plus the rest; the path itself when nothing resolves. */
export function realpathOfExistingPrefix(absolute: string): string {
  const tail: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(fs.realpathSync.native(current), ...tail);
    } catch {
      if (path.dirname(current) === current) return absolute;
      tail.unshift(path.basename(current));
    }
  }
}

export function canonicalRoot(root: string, scope: string): string {
  try {
    const real = fs.realpathSync.native(path.resolve(root));
    if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (error) {
    throw new WorkspaceError('invalid_path', `The ${scope}:/ root '${root}' is not an existing directory (${(error as Error).message}).`);
  }
}
