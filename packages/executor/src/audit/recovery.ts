import type { AuditSink } from '../ports.js';
import type { AuditRecord } from './audit-record.js';

const TERMINAL = new Set(['ToolCallCompleted', 'ToolCallRejected', 'ToolCallFailed', 'ToolCallInterrupted']);

export type RecoveryAction =
  | { kind: 'recovered'; callId: string; tool: string; output: unknown }
  | { kind: 'rerun'; callId: string; tool: string; args: unknown }
  | { kind: 'needs-confirmation'; callId: string; tool: string; args: unknown };

/**
 * What to do with each call after a crash: a call whose completion was logged is recovered
 * from the log; a call requested but never finished is re-run if it is read-only, and otherwise marked
 * interrupted to wait for fresh confirmation — a side-effecting call is never re-run on its own.
 */
export function planRecovery(records: readonly AuditRecord[], isReadOnly: (tool: string) => boolean): RecoveryAction[] {
  const requested = new Map<string, AuditRecord>();
  const finished = new Map<string, AuditRecord>();
  for (const record of records) {
    if (record.type === 'ToolCallRequested') requested.set(record.callId, record);
    else if (TERMINAL.has(record.type)) finished.set(record.callId, record);
  }
  const actions: RecoveryAction[] = [];
  for (const [callId, request] of requested) {
    const tool = String(request.tool);
    const end = finished.get(callId);
    if (end?.type === 'ToolCallCompleted') actions.push({ kind: 'recovered', callId, tool, output: end.output });
    else if (end) continue;
    else if (isReadOnly(tool)) actions.push({ kind: 'rerun', callId, tool, args: request.args });
    else actions.push({ kind: 'needs-confirmation', callId, tool, args: request.args });
  }
  return actions;
}

/** Appends `ToolCallInterrupted` for each call that needs confirmation (once: already-marked calls are finished). */
export async function markInterrupted(log: AuditSink, actions: readonly RecoveryAction[]): Promise<number> {
  let marked = 0;
  for (const action of actions) {
    if (action.kind !== 'needs-confirmation') continue;
    await log.append({
      type: 'ToolCallInterrupted',
      callId: action.callId,
      tool: action.tool,
      reason: 'the process stopped before the call finished; it needs fresh confirmation',
    });
    marked++;
  }
  return marked;
}
