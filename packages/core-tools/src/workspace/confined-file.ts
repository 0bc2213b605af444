import fs from 'node:fs';
import path from 'node:path';
import { WorkspaceError } from './workspace-error.js';
import { isWithin, type ResolvedPath } from './workspace-policy.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

/**
 * Where an open descriptor really points. On Linux `/proc/self/fd/N` names the opened file, so a
 * parent directory swapped for a symlink between the check and the open is caught after the fact.
 */
function realPathOfDescriptor(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Opens a checked path for reading without following a final symlink, and verifies what was opened. */
export function openForReading(resolved: ResolvedPath): number {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO swapped in after the check must not hang the call.
    fd = fs.openSync(resolved.absolute, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    throw fromOpenError(error, resolved);
  }
  try {
    verifyOpened(fd, resolved);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function verifyOpened(fd: number, resolved: ResolvedPath): void {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile() && !stat.isDirectory()) {
    throw new WorkspaceError('special_file', `'${resolved.relative}' is not a regular file; it is refused.`, resolved.relative);
  }
  const real = realPathOfDescriptor(fd);
  if (real !== undefined && (real !== resolved.absolute || !isWithin(resolved.root, real))) {
    throw new WorkspaceError('changed_during_use', `'${resolved.relative}' changed while it was being opened (a link was swapped in); it is refused.`, resolved.relative);
  }
}

/**
 * Writes a file atomically: a temporary file beside the target (created exclusively, never through a
 * symlink), written, fsync'd, renamed over the target, and the directory fsync'd — so a crash leaves
 * the old content or the new, never a partial file. Parent directories are created as needed; the
 * parent is re-verified just before the rename.
 */
export function writeFileAtomic(resolved: ResolvedPath, content: string | Buffer, mode = 0o644): void {
  const dir = path.dirname(resolved.absolute);
  fs.mkdirSync(dir, { recursive: true });
  const realDir = fs.realpathSync.native(dir);
  if (realDir !== dir || !isWithin(resolved.root, realDir)) {
    throw new WorkspaceError('changed_during_use', `The directory of '${resolved.relative}' changed while it was being written (a link was swapped in); nothing was written.`, resolved.relative);
  }
  if (fs.lstatSync(resolved.absolute, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new WorkspaceError('symlink_escape', `'${resolved.relative}' is a symbolic link; write to the file it names instead.`, resolved.relative);
  }
  const temporary = path.join(dir, `.${path.basename(resolved.absolute)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    if (fs.realpathSync.native(dir) !== realDir) throw new WorkspaceError('changed_during_use', `The directory of '${resolved.relative}' changed during the write; nothing was written.`, resolved.relative);
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

function fromOpenError(error: unknown, resolved: ResolvedPath): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new WorkspaceError('symlink_escape', `'${resolved.relative}' is a symbolic link; it is not followed.`, resolved.relative);
  if (code === 'ENOENT') return new WorkspaceError('not_found', `'${resolved.relative}' does not exist.`, resolved.relative);
  if (code === 'ENXIO') return new WorkspaceError('special_file', `'${resolved.relative}' is not a regular file; it is refused.`, resolved.relative);
  return error as Error;
}
