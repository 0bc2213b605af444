export { AuditLog } from './audit-log.js';
export type { AuditLogOptions, AuditRotation, Durability } from './audit-log.js';
export type { AuditRecord } from './audit-record.js';
export { readAuditLog } from './read-audit-log.js';
export { scanLog } from './scan-log.js';
export { planRecovery, markInterrupted } from './recovery.js';
export type { RecoveryAction } from './recovery.js';
export { AuditLogLockedError, AuditWriteError, AuditLogCorruptError } from './audit-errors.js';
