import type { AuditEntry } from '../ports.js';

/** One record as the log holds it: the executor's entry, numbered and timed by the log. */
export type AuditRecord = AuditEntry & { seq: number; time: string };
