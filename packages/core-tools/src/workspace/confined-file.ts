import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { at, changed, hasDescriptorPaths, openParentDirectory, pathOfDescriptor } from './directory-descriptor.js';
import { errnoOf, toWorkspaceError, lstatOrUndefined } from './fs-error.js';
import { isWithin } from './is-within.js';
import { endCoveringSandboxes } from './end-covering-sandboxes.js';
import { checkNewName, checkWellFormedContent } from './text-rules.js';
import { WorkspaceError } from './workspace-error.js';
import type { ResolvedPath } from './workspace-policy.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

/** The part of a `ResolvedPath` that confined opening needs. */
export type ConfinedPath = Pick<ResolvedPath, 'absolute' | 'relative' | 'root'>;

/**
 * Opens a checked regular file for reading and verifies what was opened. Where the system allows
 * it, the file is opened inside its parent directory reached one checked name at a time, so a
 * directory swapped for a link to elsewhere is never entered; the final name is never followed.
 */
export function openForReading(resolved: ConfinedPath): number {
  return openVerified(resolved, () => (hasDescriptorPaths && resolved.relative !== '' ? openInParent(resolved) : openFile(resolved.absolute)));
}

/**
 * Opens a regular file by its canonical path without following a final link, and verifies what was
 * opened (for walks that open many files, where `openForReading`'s per-directory walk would cost
 * too much). A parent swapped for a link may be opened through, but nothing is read from it.
 */
export function openCheckedFile(resolved: ConfinedPath): number {
  return openVerified(resolved, () => openFile(resolved.absolute));
}

function openVerified(resolved: ConfinedPath, open: () => number): number {
  let fd: number;
  try {
    fd = open();
  } catch (error) {
    throw fromOpenError(error, resolved);
  }
  try {
    verifyOpened(fd, resolved);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw toWorkspaceError(error, resolved.relative);
  }
}

// O_NONBLOCK: opening a FIFO swapped in after the check must not hang the call.
function openFile(pathname: string): number {
  return fs.openSync(pathname, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
}

function openInParent(resolved: ConfinedPath): number {
  const dirFd = openParentDirectory(resolved, false);
  if (dirFd === undefined) throw Object.assign(new Error('parent missing'), { code: 'ENOENT' });
  try {
    return openFile(at(dirFd, path.basename(resolved.absolute)));
  } finally {
    fs.closeSync(dirFd);
  }
}

function verifyOpened(fd: number, resolved: ConfinedPath): void {
  const stat = fs.fstatSync(fd);
  if (stat.isDirectory()) throw new WorkspaceError('not_a_file', `'${resolved.relative}' is a directory, not a file.`, resolved.relative);
  if (!stat.isFile()) throw new WorkspaceError('special_file', `'${resolved.relative}' is not a regular file; it is refused.`, resolved.relative);
  const real = pathOfDescriptor(fd);
  if (real !== undefined && (real !== resolved.absolute || !isWithin(resolved.root, real))) {
    throw changed(resolved.relative, 'a link was swapped in while it was being opened');
  }
}

/**
 * Reads a checked file whole, opened as `open` does (`openForReading` by default; `openCheckedFile`
 * for walks), refusing it with `too_large` past `maxBytes` (see `readBounded`).
 */
export function readConfined(
  resolved: ConfinedPath,
  maxBytes: number,
  tooLarge: (size: number) => string,
  options: { shown?: string; open?: (resolved: ConfinedPath) => number } = {},
): Buffer {
  const fd = (options.open ?? openForReading)(resolved);
  try {
    return readBounded(fd, maxBytes, options.shown ?? resolved.relative, tooLarge);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads an open file whole, refusing it with `too_large` past `maxBytes` (checked as it is read, so a growing file cannot slip through). */
export function readBounded(fd: number, maxBytes: number, shown: string, tooLarge: (size: number) => string): Buffer {
  const size = fs.fstatSync(fd).size;
  if (size > maxBytes) throw new WorkspaceError('too_large', tooLarge(size), shown);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(size - total, 0) + 1, maxBytes - total + 1, 1 << 20));
    const read = fs.readSync(fd, chunk, 0, chunk.length, total);
    if (read === 0) break;
    total += read;
    if (total > maxBytes) throw new WorkspaceError('too_large', tooLarge(total), shown);
    chunks.push(chunk.subarray(0, read));
  }
  return Buffer.concat(chunks, total);
}

/**
 * Writes a file atomically: a temporary file beside the target (created exclusively, never through a
 * symlink), written, fsync'd, renamed over the target, and the directory fsync'd — so a crash leaves
 * the old content or the new, never a partial file. Missing parent directories are created one at a
 * time inside their checked parent, never through a link, so nothing is ever created outside the
 * workspace; new names with deceptive characters and text with lone surrogates are refused. An
 * existing file keeps its permissions. A running sandbox that covers the file is ended before the rename
 * (`endCoveringSandboxes`).
 */
export function writeFileAtomic(resolved: ResolvedPath, content: string | Buffer, mode = 0o644): void {
  if (typeof content === 'string') checkWellFormedContent(content, 'The text', resolved.relative);
  if (resolved.relative === '') throw new WorkspaceError('not_a_file', 'The workspace root is a directory, not a file.', '.');
  try {
    if (hasDescriptorPaths) writeThroughDescriptor(resolved, content, mode);
    else writeFileAtomicByPath(resolved, content, mode);
  } catch (error) {
    throw toWorkspaceError(error, resolved.relative);
  }
}

function writeThroughDescriptor(resolved: ResolvedPath, content: string | Buffer, mode: number): void {
  const name = path.basename(resolved.absolute);
  const dirFd = openParentDirectory(resolved, true)!;
  try {
    const existing = checkTarget(lstatOrUndefined(at(dirFd, name)), name, resolved.relative);
    const temporary = temporaryName();
    writeTemporary(at(dirFd, temporary), content, existing?.mode ?? mode, existing !== undefined);
    try {
      if (pathOfDescriptor(dirFd) !== path.dirname(resolved.absolute)) throw changed(resolved.relative, 'its directory was moved');
      endCoveringSandboxes(resolved);
      fs.renameSync(at(dirFd, temporary), at(dirFd, name));
    } catch (error) {
      fs.rmSync(at(dirFd, temporary), { force: true });
      throw error;
    }
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

/**
 * The same where `/proc/self/fd` is missing: each missing parent is created by path and verified at
 * once; one created outside (its parent swapped for a link meanwhile) is removed again and refused.
 * Exported for tests.
 */
export function writeFileAtomicByPath(resolved: ResolvedPath, content: string | Buffer, mode = 0o644): void {
  const dir = path.dirname(resolved.absolute);
  createParentsByPath(resolved);
  const realDir = fs.realpathSync.native(dir);
  if (realDir !== dir || !isWithin(resolved.root, realDir)) throw changed(resolved.relative, 'a link was swapped in');
  const existing = checkTarget(lstatOrUndefined(resolved.absolute), path.basename(resolved.absolute), resolved.relative);
  const temporary = path.join(dir, temporaryName());
  writeTemporary(temporary, content, existing?.mode ?? mode, existing !== undefined);
  try {
    if (fs.realpathSync.native(dir) !== realDir) throw changed(resolved.relative, 'its directory was swapped');
    endCoveringSandboxes(resolved);
    fs.renameSync(temporary, resolved.absolute);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  const dirFd = fs.openSync(dir, O_RDONLY);
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

function createParentsByPath(resolved: ResolvedPath): void {
  const names = resolved.relative.split('/').slice(0, -1);
  let current = resolved.root;
  for (let i = 0; i < names.length; i++) {
    current = path.join(current, names[i]!);
    const stat = lstatOrUndefined(current);
    if (stat?.isDirectory()) continue;
    if (stat) throw changed(resolved.relative, `'${names.slice(0, i + 1).join('/')}' is no longer a directory`);
    for (const missing of names.slice(i)) checkNewName(missing, resolved.relative);
    try {
      fs.mkdirSync(current);
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
    const real = fs.realpathSync.native(current);
    if (real !== current) {
      if (!isWithin(resolved.root, real)) removeEmptyDirectory(real);
      throw changed(resolved.relative, 'a parent directory was swapped for a link');
    }
  }
}

function removeEmptyDirectory(pathname: string): void {
  try {
    fs.rmdirSync(pathname);
  } catch {
    // Not empty (someone else's by now) or already gone: left alone.
  }
}

/** Refuses a target that is a link, a directory or a special file; checks a new name. Returns its stat. */
function checkTarget(stat: fs.Stats | undefined, name: string, shown: string): fs.Stats | undefined {
  if (stat?.isSymbolicLink()) throw new WorkspaceError('symlink_escape', `'${shown}' is a symbolic link; write to the file it names instead.`, shown);
  if (stat?.isDirectory()) throw new WorkspaceError('not_a_file', `'${shown}' is a directory, not a file.`, shown);
  if (stat && !stat.isFile()) throw new WorkspaceError('special_file', `'${shown}' is not a regular file; it is refused.`, shown);
  if (!stat) checkNewName(name, shown);
  return stat;
}

function writeTemporary(pathname: string, content: string | Buffer, mode: number, exactMode: boolean): void {
  const fd = fs.openSync(pathname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode & 0o7777);
  try {
    if (exactMode) fs.fchmodSync(fd, mode & 0o7777);
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(pathname, { force: true });
    throw error;
  }
  fs.closeSync(fd);
}

/** Short, so that a target name of 255 bytes still leaves room for it. */
function temporaryName(): string {
  return `.tw-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

function fromOpenError(error: unknown, resolved: ConfinedPath): unknown {
  const code = errnoOf(error);
  if (code === 'ELOOP') return new WorkspaceError('symlink_escape', `'${resolved.relative}' is a symbolic link; it is not followed.`, resolved.relative);
  if (code === 'ENOENT') return new WorkspaceError('not_found', `'${resolved.relative}' does not exist.`, resolved.relative);
  if (code === 'ENXIO') return new WorkspaceError('special_file', `'${resolved.relative}' is not a regular file; it is refused.`, resolved.relative);
  return toWorkspaceError(error, resolved.relative);
}
