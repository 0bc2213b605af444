/** Another live process holds the log's writer lock. */
export class AuditLogLockedError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
    readonly hostname: string,
  ) {
    super(`The audit log ${path} is in use by process ${pid} on ${hostname}; one writer at a time.`);
    this.name = 'AuditLogLockedError';
  }
}

/** A write or sync failed (disk full, I/O error); the log refuses every later append until reopened. */
export class AuditWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'AuditWriteError';
  }
}

/** A record in the middle of the log does not parse: the log was altered, not merely cut short. */
export class AuditLogCorruptError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    reason: string,
  ) {
    super(`The audit log ${path} is corrupt at line ${line}: ${reason}`);
    this.name = 'AuditLogCorruptError';
  }
}
