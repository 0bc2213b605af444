import { acquireFileLock, type LockOwner } from '../file-lock.js';
import { AuditLogLockedError } from './audit-errors.js';

/** One writer of an audit log at a time (see `acquireFileLock`); a live owner is refused with `AuditLogLockedError`. */
export function acquireLock(logPath: string, onStale: (owner: LockOwner) => void = () => {}): () => void {
  return acquireFileLock(logPath, { onStale, locked: (owner) => new AuditLogLockedError(logPath, owner.pid, owner.hostname) });
}
