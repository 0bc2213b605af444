import fs from 'node:fs';
import type { AuditEntry, AuditSink } from '../ports.js';
import { AuditWriteError } from './audit-errors.js';
import { acquireLock } from './audit-lock.js';
import { scanLog } from './scan-log.js';
import { RecordLines } from './record-lines.js';
import { lastRotatedSeq, rotateFiles } from './rotated-files.js';

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
  /**
   * Rotation by size: before a write would take the log past `maxBytes`, the log becomes `<log>.1`
   * (older ones `<log>.2` … `<log>.<keep>`, default 5; the oldest beyond is deleted) and a new one starts.
   * `seq` runs on across files; `readAuditLog` reads them all. Files hold whole records: only a single
   * record larger than `maxBytes` makes a file outgrow it. Devices (`/dev/null`) are never rotated.
   */
  rotate?: AuditRotation;
}

export interface AuditRotation {
  /** Largest size of one file, in bytes (at least 1024). */
  maxBytes: number;
  /** Rotated files kept (default 5, at least 1). */
  keep?: number;
}

interface Ack {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Queued lines are written at once when they reach this many UTF-16 code units. */
const PENDING_CHARS = 64 * 1024;

/**
 * The durable, append-only JSONL audit log: one JSON record per line, with a monotonic `seq`.
 * On open, a torn last line (a crash mid-write) is cut off (its bytes kept beside the log) and `seq`
 * continues after the last complete record. Any write error puts the log in a failed state in which
 * every append is refused, so side-effecting calls fail closed.
 *
 * Writing and syncing are decoupled. Queued lines are written with one synchronous `write` (a copy into
 * the page cache, microseconds) — on a timer, or at once when the batch is full (by records or by
 * size), so a producer that never yields to the event loop cannot grow the queue without bound and
 * the pending text stays small — while `fdatasync` runs on the
 * thread pool, one at a time. An acknowledgement waits for the first sync that starts after its line
 * was written; appends that arrive during a sync share the next one (group commit).
 */
export class AuditLog implements AuditSink {
  private readonly lines: RecordLines;
  private pending = '';
  private queuedRecords = 0;
  /** Acknowledgements of queued (not yet written) lines. */
  private queue: Ack[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writeScheduled = false;
  /** Acknowledgements whose lines are written and wait for the next sync. */
  private awaitingSync: Ack[] = [];
  private syncing: Promise<void> | undefined;
  /** Lines were written since the last sync started. */
  private unsynced = false;
  private failure: AuditWriteError | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private fd: number,
    lastSeq: number,
    /** Bytes in the current file; `rotation` only for a regular file. */
    private size: number,
    private readonly rotation: Required<AuditRotation> | undefined,
    private readonly release: () => void,
    private readonly options: Required<Omit<AuditLogOptions, 'onNotice' | 'rotate'>>,
  ) {
    this.lines = new RecordLines(lastSeq);
  }

  static async open(path: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    const notice = options.onNotice ?? (() => {});
    const rotation = rotationOf(options.rotate);
    const release = acquireLock(path, (owner) => notice(`broke the stale lock of dead process ${owner.pid} on ${path}`));
    try {
      // Never through a link: a log in a workspace whose name a command freed (a rotation) and filled with a link
      // to a file of the host's would have the records written there (found by an eleventh pass).
      // A link to a device (/dev/null, /dev/full) writes nothing of the host's: it is followed, and checked once open.
      let fd: number;
      try {
        fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW, 0o644);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
        fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_APPEND);
        if (!fs.fstatSync(fd).isCharacterDevice()) {
          fs.closeSync(fd);
          throw new AuditWriteError(`the audit log ${path} is a symbolic link to a file; give the file itself`, 'ELOOP');
        }
      }
      // A device (e.g. /dev/full in tests) has no records to scan, and reading it may never end.
      const stat = fs.fstatSync(fd);
      if (stat.isFIFO() || stat.isSocket()) {
        fs.closeSync(fd);
        // Writes are synchronous: a pipe nobody reads would block the process.
        throw new AuditWriteError(
          `the audit log ${path} is a ${stat.isFIFO() ? 'pipe' : 'socket'}; give a regular file (or a device such as /dev/null)`,
          'EBADTYPE',
        );
      }
      const scan = stat.isFile() ? scanLog(fs.readFileSync(fd), path) : { records: [], validLength: 0, lastSeq: 0 };
      if ('tornBytes' in scan && scan.tornBytes) {
        const keep = `${path}.torn-${Date.now()}`;
        const kept = fs.openSync(keep, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
        try {
          fs.writeFileSync(kept, scan.tornBytes);
        } finally {
          fs.closeSync(kept);
        }
        fs.ftruncateSync(fd, scan.validLength);
        fs.fdatasyncSync(fd);
        notice(`repaired a torn last line of ${path} (${scan.tornBytes.length} bytes kept in ${keep})`);
      }
      const lastSeq = scan.records.length > 0 ? scan.lastSeq : lastRotatedSeq(path);
      return new AuditLog(path, fd, lastSeq, scan.validLength, stat.isFile() ? rotation : undefined, release, {
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
      line = this.lines.line(entry);
    } catch (error) {
      return Promise.reject(new AuditWriteError(`an audit record could not be serialised: ${(error as Error).message}`, 'ESERIALISE'));
    }
    return new Promise<void>((resolve, reject) => this.enqueue(line, { resolve, reject }));
  }

  /**
   * Appends one record without an acknowledgement (no promise): for records nothing waits on, such as
   * those of read-only calls. It is written in the same order and batches; a failure still fails the log.
   */
  record(entry: AuditEntry): void {
    if (this.failure || this.closed) return;
    try {
      this.enqueue(this.lines.line(entry));
    } catch {
      // An unserialisable informational record is dropped; acknowledged records are never dropped.
    }
  }

  /** Queues one line (and its acknowledgement): lines are written in the order they are queued. */
  private enqueue(line: string, ack?: Ack): void {
    this.pending += line;
    this.queuedRecords++;
    if (ack) this.queue.push(ack);
    if (this.pending.length >= PENDING_CHARS) this.writeQueued();
    else if (this.options.durability === 'batched') {
      if (this.queuedRecords >= this.options.maxBatchRecords) this.writeQueued();
      else this.timer ??= setTimeout(() => this.writeQueued(), this.options.batchIntervalMs);
    } else if (!this.writeScheduled) {
      // Appends made in the same tick share one write (and, in `always` mode, one sync).
      this.writeScheduled = true;
      queueMicrotask(() => this.writeQueued());
    }
  }

  /** Writes everything queued and waits for it to be durable (in `none` mode: handed to the OS). */
  async flush(): Promise<void> {
    this.writeQueued();
    if (this.failure) throw this.failure;
    if (this.options.durability === 'none') return;
    await new Promise<void>((resolve, reject) => {
      this.awaitingSync.push({ resolve, reject });
      this.sync();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true; // appends from here on are refused, so nothing is queued after the last write
    await this.flush().catch(() => undefined);
    while (this.syncing) await this.syncing;
    fs.closeSync(this.fd);
    this.release();
  }

  /** The last sequence number handed out. */
  get lastSeq(): number {
    return this.lines.lastSeq;
  }

  /** One synchronous write of every queued line, then a sync (unless one is running: it is chained). */
  private writeQueued(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writeScheduled = false;
    if (this.pending === '') return;
    const acks = this.takeAcks();
    const text = this.pending;
    this.pending = '';
    this.queuedRecords = 0;
    this.writeLines(text, acks);
  }

  private takeAcks(): Ack[] {
    const acks = this.queue;
    this.queue = [];
    return acks;
  }

  private writeLines(text: string, acks: Ack[]): void {
    if (this.failure) return this.rejectAll(acks);
    try {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (this.rotation && this.size + bytes > this.rotation.maxBytes) this.writeRotating(text, this.rotation.maxBytes);
      else {
        writeAllSync(this.fd, text);
        this.size += bytes;
      }
    } catch (error) {
      this.fail(error);
      return this.rejectAll(acks);
    }
    if (this.options.durability === 'none') {
      for (const ack of acks) ack.resolve();
      return;
    }
    for (const ack of acks) this.awaitingSync.push(ack);
    this.unsynced = true;
    this.sync();
  }

  /**
   * Starts an fdatasync covering every line written so far, unless one is running; when it ends, the
   * acknowledgements it covers resolve and, if more lines were written meanwhile, the next one starts.
   */
  private sync(): void {
    if (this.syncing || this.failure) return;
    const covered = this.awaitingSync;
    this.awaitingSync = [];
    this.unsynced = false;
    this.syncing = new Promise<void>((done) => {
      fs.fdatasync(this.fd, (error) => {
        this.syncing = undefined;
        if (error) {
          this.fail(error);
          this.rejectAll(covered);
          this.rejectAll(this.awaitingSync);
          this.awaitingSync = [];
        } else {
          for (const ack of covered) ack.resolve();
          // Lines written while this sync ran — acknowledged or not — get the next one.
          if (this.awaitingSync.length > 0 || this.unsynced) this.sync();
        }
        done();
      });
    });
  }

  /** Writes whole lines into each file up to `maxBytes`, starting a new file where the next line would not fit. */
  private writeRotating(text: string, maxBytes: number): void {
    let start = 0;
    while (start < text.length) {
      let end = start;
      let bytes = 0;
      // Whole lines that fit; a line larger than a file goes alone into one.
      for (;;) {
        const next = text.indexOf('\n', end) + 1 || text.length;
        const lineBytes = Buffer.byteLength(text.slice(end, next), 'utf8');
        if (end > start && this.size + bytes + lineBytes > maxBytes) break;
        if (end === start && this.size > 0 && this.size + lineBytes > maxBytes) this.rotate();
        bytes += lineBytes;
        end = next;
        if (end >= text.length) break;
      }
      writeAllSync(this.fd, text.slice(start, end));
      this.size += bytes;
      start = end;
    }
  }

  /**
   * Starts a new file: what was written is made durable first (acknowledging it), the files are renamed
   * (`rotateFiles`), and the old descriptor is closed once no sync still runs on it.
   */
  private rotate(): void {
    if (this.options.durability !== 'none') {
      fs.fdatasyncSync(this.fd);
      const covered = this.awaitingSync;
      this.awaitingSync = [];
      this.unsynced = false;
      for (const ack of covered) ack.resolve();
    }
    rotateFiles(this.path, this.rotation!.keep);
    const old = this.fd;
    // The name was just freed: made afresh, never opened through whatever a process put there meanwhile (a link to a
    // file of the host's: found by an eleventh pass). Something there fails the write, and the log with it.
    this.fd = fs.openSync(this.path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW, 0o644);
    this.size = 0;
    const closeOld = () => {
      try {
        fs.closeSync(old);
      } catch {
        // Already closed: nothing is lost, its lines were synced before the rotation.
      }
    };
    if (this.syncing) void this.syncing.then(closeOld);
    else closeOld();
  }

  private fail(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    this.failure ??= new AuditWriteError(
      `the audit log ${this.path} cannot be written (${code ?? (error as Error).message}); no further records are accepted`,
      code,
    );
    this.rejectAll(this.takeAcks());
    this.pending = '';
    this.queuedRecords = 0;
  }

  private rejectAll(acks: readonly Ack[]): void {
    for (const ack of acks) ack.reject(this.failure!);
  }
}

function rotationOf(rotate: AuditRotation | undefined): Required<AuditRotation> | undefined {
  if (rotate === undefined) return undefined;
  const { maxBytes, keep = 5 } = rotate;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1024)
    throw new RangeError(`audit rotation: maxBytes must be an integer of at least 1024, not ${String(maxBytes)}`);
  if (!Number.isSafeInteger(keep) || keep < 1) throw new RangeError(`audit rotation: keep must be an integer of at least 1, not ${String(keep)}`);
  return { maxBytes, keep };
}

/** Writes a string whole: straight from the string, and through a buffer only to finish a short write. */
function writeAllSync(fd: number, text: string): void {
  let offset = fs.writeSync(fd, text);
  if (offset === Buffer.byteLength(text, 'utf8')) return;
  const data = Buffer.from(text, 'utf8');
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
}
