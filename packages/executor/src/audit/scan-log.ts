import { AuditLogCorruptError } from './audit-errors.js';
import type { AuditRecord } from './audit-record.js';

export interface LogScan {
  records: AuditRecord[];
  /** Bytes up to the end of the last complete, valid line. */
  validLength: number;
  /** The bytes of a torn last line (a crash mid-write), if any. */
  tornBytes?: Buffer;
  lastSeq: number;
}

/**
 * Parses a log: every complete line must be a JSON record; only the *last* line may be torn (no
 * trailing newline, or unparsable) — anything broken before it is corruption, reported by line.
 */
export function scanLog(bytes: Buffer, path: string): LogScan {
  const records: AuditRecord[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    line++;
    if (end === -1) {
      return { records, validLength: start, tornBytes: bytes.subarray(start), lastSeq: records.at(-1)?.seq ?? 0 };
    }
    const text = bytes.subarray(start, end).toString('utf8');
    let record: AuditRecord | undefined;
    try {
      record = JSON.parse(text) as AuditRecord;
    } catch {
      record = undefined;
    }
    if (!record || typeof record.seq !== 'number' || typeof record.type !== 'string') {
      if (end === bytes.length - 1) return { records, validLength: start, tornBytes: bytes.subarray(start), lastSeq: records.at(-1)?.seq ?? 0 };
      throw new AuditLogCorruptError(path, line, record ? 'a record without seq or type' : 'not valid JSON');
    }
    records.push(record);
    start = end + 1;
  }
  return { records, validLength: bytes.length, lastSeq: records.at(-1)?.seq ?? 0 };
}
