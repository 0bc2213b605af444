import fs from 'node:fs';
import os from 'node:os';
import { AuditLogLockedError } from './audit-errors.js';

interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

/**
 * One writer at a time: an exclusive `<log>.lock` file (created with O_EXCL) naming its owner. A lock
 * left by a dead process on this host is broken; a live owner is refused with its pid.
 */
export function acquireLock(logPath: string, onStale: (owner: LockOwner) => void = () => {}): () => void {
  const lockPath = `${logPath}.lock`;
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
      fs.writeSync(fd, JSON.stringify(me));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(lockPath);
    if (owner && owner.hostname === me.hostname && !isAlive(owner.pid)) {
      onStale(owner);
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    if (!owner) {
      // An empty or unreadable lock file: a writer died between creating and filling it.
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    throw new AuditLogLockedError(logPath, owner.pid, owner.hostname);
  }
  throw new AuditLogLockedError(logPath, -1, 'unknown');
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
