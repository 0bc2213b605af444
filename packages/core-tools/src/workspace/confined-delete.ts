import fs from 'node:fs';
import path from 'node:path';
import { at, changed, hasDescriptorPaths, openDirectory, openParentDirectory } from './directory-descriptor.js';
import { errnoOf, toWorkspaceError, lstatOrUndefined } from './fs-error.js';
import { CoreToolError } from '../core-tool-error.js';
import { endCoveringSandboxes } from './end-covering-sandboxes.js';
import { TimeSlices } from './time-slices.js';
import { WorkspaceError } from './workspace-error.js';
import type { ResolvedPath } from './workspace-policy.js';

export type DeletedKind = 'file' | 'directory' | 'symlink';

/**
 * Deletes what `resolved` (from `resolveLink`) names: a file or a link itself, or a directory —
 * empty, or with `recursive` everything in it. Every entry is removed inside its parent directory
 * held open and checked, and directories are entered without following links, so an entry swapped
 * for a link during the deletion is removed itself and its target is never reached. A tree is as large as a
 * model made it (a million files from four `cp -r`): the removal lets other work run every few milliseconds and
 * stops, leaving the rest, when `signal` aborts (the call's deadline or cancellation). A running sandbox that covers
 * what is deleted, or something in it, is ended just before the first removal (`endCoveringSandboxes`).
 */
export async function deleteConfined(resolved: ResolvedPath, recursive: boolean, signal?: AbortSignal): Promise<DeletedKind> {
  const shown = resolved.relative;
  if (shown === '') throw new WorkspaceError('workspace_root', 'The workspace root cannot be deleted.', shown);
  try {
    return hasDescriptorPaths
      ? await deleteThroughDescriptor(
          resolved,
          recursive,
          new TimeSlices(signal, () => new CoreToolError('cancelled', 'The delete was cancelled; what it had not removed yet is still there.')),
        )
      : deleteByPath(resolved, recursive);
  } catch (error) {
    throw toWorkspaceError(error, shown);
  }
}

async function deleteThroughDescriptor(resolved: ResolvedPath, recursive: boolean, slices: TimeSlices): Promise<DeletedKind> {
  const shown = resolved.relative;
  const parent = openParentDirectory(resolved, false);
  if (parent === undefined) throw notFound(shown);
  try {
    const name = path.basename(resolved.absolute);
    const stat = lstatOrUndefined(at(parent, name));
    if (!stat) throw notFound(shown);
    if (!stat.isDirectory()) {
      checkDeletable(stat, shown);
      endCoveringSandboxes(resolved);
      return unlinkEntry(parent, name, stat);
    }
    const dir = openDirectory(at(parent, name), resolved.absolute, shown);
    if (dir === undefined) throw changed(shown, 'it disappeared');
    try {
      if (!recursive && fs.readdirSync(`/proc/self/fd/${dir}`).length > 0) throw notEmpty(shown);
      endCoveringSandboxes(resolved);
      if (recursive) await removeContents(dir, resolved.absolute, shown, slices);
    } finally {
      fs.closeSync(dir);
    }
    fs.rmdirSync(at(parent, name));
    return 'directory';
  } finally {
    fs.closeSync(parent);
  }
}

/** Removes everything inside the directory open as `dir` (at `where`), depth first. */
async function removeContents(dir: number, where: string, shown: string, slices: TimeSlices): Promise<void> {
  for (const name of fs.readdirSync(`/proc/self/fd/${dir}`)) {
    await slices.next();
    const stat = lstatOrUndefined(at(dir, name));
    if (!stat) continue;
    if (!stat.isDirectory()) {
      unlinkEntry(dir, name, stat);
      continue;
    }
    const child = openDirectory(at(dir, name), path.join(where, name), shown);
    if (child === undefined) continue;
    try {
      await removeContents(child, path.join(where, name), shown, slices);
    } finally {
      fs.closeSync(child);
    }
    fs.rmdirSync(at(dir, name));
  }
}

function unlinkEntry(dir: number, name: string, stat: fs.Stats): DeletedKind {
  try {
    fs.unlinkSync(at(dir, name));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return stat.isSymbolicLink() ? 'symlink' : 'file';
    throw error;
  }
  return stat.isSymbolicLink() ? 'symlink' : 'file';
}

/** Where `/proc/self/fd` is missing: by path, as `rm` does. */
function deleteByPath(resolved: ResolvedPath, recursive: boolean): DeletedKind {
  const shown = resolved.relative;
  const stat = lstatOrUndefined(resolved.absolute);
  if (!stat) throw notFound(shown);
  if (!stat.isDirectory()) {
    checkDeletable(stat, shown);
    endCoveringSandboxes(resolved);
    fs.unlinkSync(resolved.absolute);
    return stat.isSymbolicLink() ? 'symlink' : 'file';
  }
  if (!recursive && fs.readdirSync(resolved.absolute).length > 0) throw notEmpty(shown);
  endCoveringSandboxes(resolved);
  fs.rmSync(resolved.absolute, { recursive: true, force: false });
  return 'directory';
}

function checkDeletable(stat: fs.Stats, shown: string): fs.Stats {
  if (!stat.isFile() && !stat.isSymbolicLink()) throw new WorkspaceError('special_file', `'${shown}' is not a file, link or directory; it is refused.`, shown);
  return stat;
}

function notFound(shown: string): WorkspaceError {
  return new WorkspaceError('not_found', `'${shown}' does not exist.`, shown);
}

function notEmpty(shown: string): WorkspaceError {
  return new WorkspaceError(
    'not_empty',
    `'${shown}' is a directory that is not empty; call file_delete again with recursive: true to delete it and its contents.`,
    shown,
  );
}
