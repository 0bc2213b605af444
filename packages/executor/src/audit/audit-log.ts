import fs from 'node:fs';
import type { AuditEntry, AuditSink } from '../ports.js';
import { AuditWriteError } from './audit-errors.js';
import { acquireLock } from './audit-lock.js';
import { scanLog } from './read-audit-log.js';

/**
 * How an append is acknowledged:
 * - `always`: written and fdatasync'd before the promise resolves (one sync per group of concurrent appends);
 * - `batched`: group commit — appends within `batchIntervalMs` share one write and one fdatasync, and all
 *   resolve together. A crash loses only records not yet acknowledged, never an acknowledged one; the cost
 *   is up to `batchIntervalMs` of latency per acknowledgement;
 * - `none`: resolves once the record is handed to the OS (no sync): a power loss may drop acknowledged records.
 */
export type Durability = 'always' | 'batched' | 'none';

export interface AuditLogOptions {
  durability?: Durability;
  /** Longest wait before a batch is written (batched mode, default 5 ms). */
  batchIntervalMs?: number;
  /** A batch is written at once when it reaches this many records (default 4096). */
  maxBatchRecords?: number;
  /** Told about repairs (torn last line) and broken stale locks. */
  onNotice?: (message: string) => void;
}

export type AuditRecord = AuditEntry & { seq: number; time: string };

interface Pending {
  line: string;
  resolve?: () => void;
  reject?: (error: Error) => void;
}

/**
 * The durable, append-only JSONL audit log: one JSON record per line, with a monotonic `seq`.
 * On open, a torn last line (a crash mid-write) is cut off (its bytes kept beside the log) and `seq`
 * continues after the last complete record. Any write error puts the log in a failed state in which
 * every append is refused, so side-effecting calls fail closed.
 */
export class AuditLog implements AuditSink {
  private seq: number;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failure: AuditWriteError | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    lastSeq: number,
    private readonly release: () => void,
    private readonly options: Required<Omit<AuditLogOptions, 'onNotice'>>,
  ) {
    this.seq = lastSeq;
  }

  static async open(path: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    const notice = options.onNotice ?? (() => {});
    const release = acquireLock(path, (owner) => notice(`broke the stale lock of dead process ${owner.pid} on ${path}`));
    try {
      const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o644);
      // A device (e.g. /dev/full in tests) has no records to scan, and reading it may never end.
      const scan = fs.fstatSync(fd).isFile() ? scanLog(fs.readFileSync(path), path) : { records: [], validLength: 0, lastSeq: 0 };
      if ('tornBytes' in scan && scan.tornBytes) {
        const keep = `${path}.torn-${Date.now()}`;
        fs.writeFileSync(keep, scan.tornBytes);
        fs.ftruncateSync(fd, scan.validLength);
        fs.fdatasyncSync(fd);
        notice(`repaired a torn last line of ${path} (${scan.tornBytes.length} bytes kept in ${keep})`);
      }
      return new AuditLog(path, fd, scan.lastSeq, release, {
        durability: options.durability ?? 'always',
        batchIntervalMs: options.batchIntervalMs ?? 5,
        maxBatchRecords: options.maxBatchRecords ?? 4096,
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Appends one record; resolves when it is durable per the log's mode. */
  append(entry: AuditEntry): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new AuditWriteError(`the audit log ${this.path} is closed`, 'ECLOSED'));
    let line: string;
    try {
      line = this.serialise(entry);
    } catch (error) {
      return Promise.reject(new AuditWriteError(`an audit record could not be serialised: ${(error as Error).message}`, 'ESERIALISE'));
    }
    return new Promise<void>((resolve, reject) => this.enqueue({ line, resolve, reject }));
  }

  /**
   * Appends one record without an acknowledgement (no promise): for records nothing waits on, such as
   * those of read-only calls. It is written in the same order and batches; a failure still fails the log.
   */
  record(entry: AuditEntry): void {
    if (this.failure || this.closed) return;
    try {
      this.enqueue({ line: this.serialise(entry) });
    } catch {
      // An unserialisable informational record is dropped; acknowledged records are never dropped.
    }
  }

  private lastMs = 0;
  private lastIso = '';

  /** `{"seq":N,"time":"…",<the entry's own fields>}` without building an intermediate object. */
  private serialise(entry: AuditEntry): string {
    const json = JSON.stringify(entry);
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastIso = new Date(now).toISOString();
    }
    this.seq++;
    return json.length > 2 ? `{"seq":${this.seq},"time":"${this.lastIso}",${json.slice(1)}\n` : `{"seq":${this.seq},"time":"${this.lastIso}"}\n`;
  }

  private enqueue(pending: Pending): void {
    this.queue.push(pending);
    if (this.options.durability !== 'batched' || this.queue.length >= this.options.maxBatchRecords) this.flushSoon(0);
    else this.flushSoon(this.options.batchIntervalMs);
  }

  /** Writes everything queued and waits for it to be durable. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.writeBatch());
    await this.writing;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush().catch(() => undefined);
    this.closed = true;
    fs.closeSync(this.fd);
    this.release();
  }

  /** The last sequence number handed out. */
  get lastSeq(): number {
    return this.seq;
  }

  private flushSoon(delay: number): void {
    if (delay === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.writeBatch());
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.writeBatch());
    }, delay);
  }

  private async writeBatch(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    if (this.failure) {
      for (const p of batch) p.reject?.(this.failure);
      return;
    }
    try {
      const data = Buffer.from(batch.map((p) => p.line).join(''), 'utf8');
      await writeAll(this.fd, data);
      if (this.options.durability !== 'none') await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (e) => (e ? reject(e) : resolve())));
      for (const p of batch) p.resolve?.();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.failure = new AuditWriteError(`the audit log ${this.path} cannot be written (${code ?? (error as Error).message}); no further records are accepted`, code);
      for (const p of [...batch, ...this.queue]) p.reject?.(this.failure);
      this.queue = [];
    }
  }
}

function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number) => {
      fs.write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) return reject(error);
        if (offset + written < data.length) return step(offset + written);
        resolve();
      });
    };
    step(0);
  });
}
