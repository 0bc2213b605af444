import { JsonText, type AuditEntry, type AuditSink } from './ports.js';

/** Keeps audit records in memory: for tests and demos. Production passes a durable `AuditLog`. */
export class MemoryAuditSink implements AuditSink {
  readonly records: (AuditEntry & { seq: number; time: string })[] = [];

  async append(entry: AuditEntry): Promise<void> {
    this.record(entry);
  }

  /** Keeps the record as the log file would hold it: `JsonText` fields as values, undefined fields left out. */
  record(entry: AuditEntry): void {
    const record: Record<string, unknown> = { seq: this.records.length + 1, time: new Date().toISOString() };
    for (const [key, value] of Object.entries(entry)) {
      if (value !== undefined) record[key] = value instanceof JsonText ? value.value : value;
    }
    this.records.push(record as AuditEntry & { seq: number; time: string });
  }
}
