import fs from 'node:fs';
import { JsonText, type AuditEntry, type AuditSink } from '../ports.js';
import { AuditWriteError } from './audit-errors.js';
import { acquireLock } from './audit-lock.js';
import { scanLog } from './read-audit-log.js';
import { stringJson } from '../steps/normalize-output.js';

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
  private seq: number;
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
      const stat = fs.fstatSync(fd);
      if (stat.isFIFO() || stat.isSocket()) {
        fs.closeSync(fd);
        // Writes are synchronous: a pipe nobody reads would block the process.
        throw new AuditWriteError(`the audit log ${path} is a ${stat.isFIFO() ? 'pipe' : 'socket'}; give a regular file (or a device such as /dev/null)`, 'EBADTYPE');
      }
      const scan = stat.isFile() ? scanLog(fs.readFileSync(path), path) : { records: [], validLength: 0, lastSeq: 0 };
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
    return new Promise<void>((resolve, reject) => this.enqueue(line, { resolve, reject }));
  }

  /**
   * Appends one record without an acknowledgement (no promise): for records nothing waits on, such as
   * those of read-only calls. It is written in the same order and batches; a failure still fails the log.
   */
  record(entry: AuditEntry): void {
    if (this.failure || this.closed) return;
    try {
      this.enqueue(this.serialise(entry));
    } catch {
      // An unserialisable informational record is dropped; acknowledged records are never dropped.
    }
  }

  private lastMs = 0;
  private lastIso = '';

  /**
   * `{"seq":N,"time":"…",<the entry's fields in order>}`, field by field: `JsonText` values are spliced
   * in as they are, plain strings are quoted without a trip through `JSON.stringify`, anything else is
   * `JSON.stringify`'d — so the line equals `JSON.stringify` of the record.
   */
  private serialise(entry: AuditEntry): string {
    let fields = '';
    for (const key in entry) {
      const value = (entry as Record<string, unknown>)[key];
      const json = fieldJson(value);
      if (json === undefined) continue;
      let quoted = quotedKeys.get(key);
      if (quoted === undefined) {
        quoted = `,${JSON.stringify(key)}:`;
        if (quotedKeys.size < 1024) quotedKeys.set(key, quoted);
      }
      fields += quoted + json;
    }
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastIso = new Date(now).toISOString();
    }
    this.seq++;
    return `{"seq":${this.seq},"time":"${this.lastIso}"${fields}}\n`;
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
    return this.seq;
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
      writeAllSync(this.fd, text);
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

  private fail(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    this.failure ??= new AuditWriteError(`the audit log ${this.path} cannot be written (${code ?? (error as Error).message}); no further records are accepted`, code);
    this.rejectAll(this.takeAcks());
    this.pending = '';
    this.queuedRecords = 0;
  }

  private rejectAll(acks: readonly Ack[]): void {
    for (const ack of acks) ack.reject(this.failure!);
  }
}

const quotedKeys = new Map<string, string>();

/**
 * A field's JSON, or undefined for values JSON.stringify leaves out of an object (undefined, functions,
 * symbols). Scalars, plain strings and arrays of them — most of a record — skip `JSON.stringify`.
 */
function fieldJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringJson(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      if (value instanceof JsonText) return value.json;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + stringJson(value[i] as string);
        return `${out}]`;
      }
      return JSON.stringify(value) as string | undefined;
  }
}

/** Writes a string whole: straight from the string, and through a buffer only to finish a short write. */
function writeAllSync(fd: number, text: string): void {
  let offset = fs.writeSync(fd, text);
  if (offset === Buffer.byteLength(text, 'utf8')) return;
  const data = Buffer.from(text, 'utf8');
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
}
