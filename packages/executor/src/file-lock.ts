import fs from 'node:fs';
import os from 'node:os';

/** Who holds a lock file: its process, its host, when it took it. */
export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

export interface FileLockOptions {
  /** The error for a lock a live process holds (or one of another host, whose liveness cannot be told). */
  locked: (owner: LockOwner) => Error;
  /** Told when the lock of a process that is gone is broken. */
  onStale?: (owner: LockOwner) => void;
}

/**
 * One process at a time for `file` (the audit log, a task file): an exclusive `<file>.lock` naming its owner. A lock left by a dead process of this host is broken (see `breakLock`: of processes breaking it at
 * once, none removes the lock another has just taken); a live owner, or one of another host (or container), is refused
 * with `locked`. Returns the release.
 */
export function acquireFileLock(file: string, options: FileLockOptions): () => void {
  const lockPath = `${file}.lock`;
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
  let owner: LockOwner | undefined;
  for (let attempt = 0; attempt < 200; attempt++) {
    // Written whole beside it, then linked into place (fails if one exists): a lock is never seen half-written, so an
    // empty one is a crash of an older writer, never a lock being taken this instant.
    const draft = `${lockPath}.${process.pid}.draft`;
    fs.writeFileSync(draft, JSON.stringify(me), { mode: 0o644, flush: true });
    try {
      fs.linkSync(draft, lockPath);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
    const text = readText(lockPath);
    if (text === undefined) continue; // released meanwhile
    owner = parseOwner(text);
    // An empty or unreadable lock: a writer died between creating and filling it.
    if (owner && (owner.hostname !== me.hostname || isAlive(owner.pid))) throw options.locked(owner);
    if (breakLock(lockPath, text) && owner) options.onStale?.(owner);
  }
  throw options.locked(owner ?? { pid: -1, hostname: 'unknown', startedAt: '' });
}

/** How long a breaker may hold `<file>.lock.break` before it is taken for dead itself. */
const BREAK_TIMEOUT_MS = 10_000;

/**
 * Removes the stale lock if it still holds `stale`, under `<lock>.break` (created with O_EXCL): of several processes
 * breaking one lock at once, one removes it and each of the others finds either the lock gone or a live owner's —
 * never removes a lock another has just taken. The others wait a moment and look again.
 */
function breakLock(lockPath: string, stale: string): boolean {
  const breaker = `${lockPath}.break`;
  try {
    fs.writeFileSync(breaker, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - fs.statSync(breaker).mtimeMs > BREAK_TIMEOUT_MS) fs.rmSync(breaker, { force: true });
    } catch {
      // released meanwhile
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    return false;
  }
  try {
    if (readText(lockPath) !== stale) return false;
    fs.rmSync(lockPath, { force: true });
    return true;
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.hostname === 'string' ? owner : undefined;
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
