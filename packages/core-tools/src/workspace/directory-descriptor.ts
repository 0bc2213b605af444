import fs from 'node:fs';
import path from 'node:path';
import { errnoOf } from './fs-error.js';
import { checkNewName } from './text-rules.js';
import { WorkspaceError } from './workspace-error.js';
import type { ResolvedPath } from './workspace-policy.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/**
 * Whether `/proc/self/fd` works (Linux). There `/proc/self/fd/N/name` names `name` inside exactly
 * the directory open as N, whatever happens to the path that led to it — Node's stand-in for
 * openat/mkdirat/renameat/unlinkat — and `readlink /proc/self/fd/N` says where N really is.
 */
export const hasDescriptorPaths: boolean = (() => {
  try {
    const fd = fs.openSync('/', O_RDONLY | O_DIRECTORY);
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === '/';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
})();

/** `name` inside the directory open as `dirFd` (see `hasDescriptorPaths`). */
export function at(dirFd: number, name: string): string {
  return `/proc/self/fd/${dirFd}/${name}`;
}

/** Where an open descriptor really points, or undefined where the system cannot say. */
export function pathOfDescriptor(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Opens a directory without following a final link and checks that it is `expected`; undefined if it is missing. */
export function openDirectory(pathname: string, expected: string, shown: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(pathname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    if (['ELOOP', 'ENOTDIR'].includes(errnoOf(error) ?? '')) throw changed(shown, `'${path.basename(expected)}' is no longer a directory`);
    throw error;
  }
  const actual = pathOfDescriptor(fd);
  if (actual !== undefined && actual !== expected) {
    fs.closeSync(fd);
    throw changed(shown, `a directory on the way was moved or swapped`);
  }
  return fd;
}

/**
 * Opens the directory that holds `resolved`, walking from its scope root one name at a time, each
 * opened inside the previous descriptor without following links and checked to be where it should
 * be. With `create`, missing directories are made inside the open parent (never through a link),
 * their names checked first. Returns the open descriptor (the caller closes it), or undefined when
 * a parent is missing and `create` is not set. Needs `hasDescriptorPaths`.
 */
export function openParentDirectory(resolved: Pick<ResolvedPath, 'relative' | 'root'>, create: boolean): number | undefined {
  const names = resolved.relative.split('/').slice(0, -1);
  const shown = resolved.relative;
  let fd = openDirectory(resolved.root, resolved.root, shown);
  if (fd === undefined) throw changed(shown, 'the workspace root disappeared');
  let expected = resolved.root;
  try {
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      expected = path.join(expected, name);
      let next = openDirectory(at(fd, name), expected, shown);
      if (next === undefined) {
        if (!create) return closeAndReturn(fd, undefined);
        for (const missing of names.slice(i)) checkNewName(missing, shown);
        try {
          fs.mkdirSync(at(fd, name));
        } catch (error) {
          if (errnoOf(error) !== 'EEXIST') throw error; // made meanwhile by someone else: opened and checked below
        }
        next = openDirectory(at(fd, name), expected, shown);
        if (next === undefined) throw changed(shown, 'a directory just created disappeared');
      }
      fs.closeSync(fd);
      fd = next;
    }
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function closeAndReturn<T>(fd: number, value: T): T {
  fs.closeSync(fd);
  return value;
}

export function changed(shown: string, why: string): WorkspaceError {
  return new WorkspaceError(
    'changed_during_use',
    `'${shown}' changed while it was being used (${why}); it was refused and nothing outside the workspace was touched. Try again.`,
    shown,
  );
}
