export { AuditLog } from './audit-log.js';
export type { AuditLogOptions, Durability } from './audit-log.js';
export type { AuditRecord } from './audit-record.js';
export { readAuditLog, scanLog } from './read-audit-log.js';
export { planRecovery, markInterrupted } from './recovery.js';
export type { RecoveryAction } from './recovery.js';
export { AuditLogLockedError, AuditWriteError, AuditLogCorruptError } from './audit-errors.js';
