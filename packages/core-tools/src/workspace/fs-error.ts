import fs from 'node:fs';
import { WorkspaceError } from './workspace-error.js';

/** The errno code of a Node.js file-system error (`ENOENT`, `ELOOP`, ...), if it is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^(E[A-Z0-9]+|ERR_FS_[A-Z_]+)$/.test(code) ? code : undefined;
}

/**
 * A file-system error met while using a path that the policy had already checked, as a
 * `WorkspaceError`. Such a path existed (or its parent did) a moment ago, so a missing entry, a
 * link where a directory was, or a directory where a file was means someone changed it meanwhile.
 * Anything that is not a file-system error (our own messages, `WorkspaceError`s) passes unchanged.
 */
export function toWorkspaceError(error: unknown, shown: string): unknown {
  if (error instanceof WorkspaceError) return error;
  const code = errnoOf(error);
  if (code === undefined) return error;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
    case 'ELOOP':
    case 'EINVAL':
    case 'EISDIR':
    case 'EEXIST':
    case 'ENOTEMPTY':
    case 'ESTALE':
      return new WorkspaceError(
        'changed_during_use',
        `'${shown}' changed while it was being used (${describe(code)}); nothing outside the workspace was touched. Try again.`,
        shown,
      );
    case 'EACCES':
    case 'EPERM':
      return new WorkspaceError('permission_denied', `'${shown}' cannot be accessed: permission denied.`, shown);
    case 'ENAMETOOLONG':
      return new WorkspaceError('invalid_path', `'${shown}' is too long for the file system.`, shown);
    case 'ENXIO':
    case 'ENODEV':
      return new WorkspaceError('special_file', `'${shown}' is not a regular file; it is refused.`, shown);
    case 'EFBIG':
    case 'ERR_FS_FILE_TOO_LARGE':
      return new WorkspaceError('too_large', `'${shown}' is too large to be handled at once.`, shown);
    default:
      return new WorkspaceError(
        'io_error',
        `'${shown}' could not be used: the file system reported ${code}${code === 'ENOSPC' ? ' (no space left on the device)' : code === 'EROFS' ? ' (read-only file system)' : ''}.`,
        shown,
      );
  }
}

/** Runs `action`, turning file-system errors into `WorkspaceError`s about `shown` (see `toWorkspaceError`). */
export async function withWorkspaceErrors<T>(shown: string, action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw toWorkspaceError(error, shown);
  }
}

function describe(code: string): string {
  switch (code) {
    case 'ENOENT':
      return 'an entry disappeared';
    case 'ENOTDIR':
      return 'a directory was replaced by something else';
    case 'ELOOP':
      return 'a symbolic link appeared';
    case 'EISDIR':
      return 'a file was replaced by a directory';
    case 'EEXIST':
      return 'an entry appeared';
    case 'ENOTEMPTY':
      return 'a directory gained entries';
    default:
      return code;
  }
}

/** lstat, or undefined when nothing is there (other failures are thrown). */
export function lstatOrUndefined(pathname: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(pathname);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}
