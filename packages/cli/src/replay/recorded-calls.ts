import fs from 'node:fs';
import { AuditLogCorruptError, readAuditLog, type AuditRecord } from '@toolwright/executor';
import { CliError } from '../cli-error.js';

/** How a recorded call ended, by its terminal record (`unfinished`: none, the process ended first). */
export type RecordedOutcome = 'completed' | 'failed' | 'rejected' | 'interrupted' | 'unfinished';

/** One call of an audit log whose arguments the executor validated (its `ToolCallRequested` carries `argsHash`). */
export interface RecordedCall {
  seq: number;
  callId: string;
  tool: string;
  /** The arguments as validated: canonical JSON, as the log holds them. */
  args: Record<string, unknown>;
  argsHash: string;
  outcome: RecordedOutcome;
  /** Of a completed call: the sha-256 of its normalised output, and that output. */
  outputHash?: string;
  output?: unknown;
}

export interface RecordedLog {
  calls: RecordedCall[];
  /** Calls refused before their arguments were validated (an unknown tool, malformed arguments): nothing to replay. */
  unvalidated: number;
  /** The log's last line was torn (a crash mid-write) and is left out. */
  torn: boolean;
}

const TERMINAL: Readonly<Record<string, RecordedOutcome>> = {
  ToolCallCompleted: 'completed',
  ToolCallFailed: 'failed',
  ToolCallRejected: 'rejected',
  ToolCallInterrupted: 'interrupted',
};

/**
 * The recorded calls of an audit log (and its rotated files), in `seq` order, each with how it ended. A
 * missing file, a line that is no record and a record that lacks what a call needs are errors naming the
 * file and the record, never a crash.
 */
export function readRecordedCalls(file: string): RecordedLog {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`Cannot read the audit log ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}.`, 2);
  }
  if (!stat.isFile()) throw new CliError(`Cannot read the audit log ${file}: it is not a file.`, 2);
  let log: { records: AuditRecord[]; torn: boolean };
  try {
    log = readAuditLog(file);
  } catch (error) {
    if (error instanceof AuditLogCorruptError) throw new CliError(`${error.message}; it is not an audit log toolwright replay can read.`, 1);
    throw new CliError(`Cannot read the audit log ${file}: ${(error as Error).message}.`, 1);
  }
  const calls: RecordedCall[] = [];
  const open = new Map<string, RecordedCall>();
  let unvalidated = 0;
  for (const record of log.records) {
    if (record.type === 'ToolCallRequested') {
      if (typeof record.argsHash !== 'string') {
        unvalidated++;
        continue;
      }
      const call = requestedCall(record, file);
      calls.push(call);
      open.set(call.callId, call);
      continue;
    }
    const outcome = Object.hasOwn(TERMINAL, record.type) ? TERMINAL[record.type] : undefined;
    const call = outcome !== undefined && typeof record.callId === 'string' ? open.get(record.callId) : undefined;
    if (outcome === undefined || call === undefined) continue;
    open.delete(call.callId);
    call.outcome = outcome;
    if (outcome === 'completed') {
      if (typeof record.outputHash !== 'string') throw malformed(file, record, 'a ToolCallCompleted record without its outputHash');
      call.outputHash = record.outputHash;
      call.output = record.output ?? null;
    }
  }
  return { calls, unvalidated, torn: log.torn };
}

function requestedCall(record: AuditRecord, file: string): RecordedCall {
  const { callId, tool, args, argsHash } = record;
  // The seq names the call's constant in `replay --out` (`call_<seq>`): anything but a whole number is no identifier.
  if (!Number.isSafeInteger(record.seq) || record.seq < 0) throw malformed(file, record, 'a ToolCallRequested record whose seq is not a whole number');
  if (typeof callId !== 'string' || callId === '') throw malformed(file, record, 'a ToolCallRequested record without a callId');
  if (typeof tool !== 'string' || tool === '') throw malformed(file, record, `the ToolCallRequested record of ${callId} names no tool`);
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw malformed(file, record, `the ToolCallRequested record of ${callId} holds no argument object`);
  return { seq: record.seq, callId, tool, args: args as Record<string, unknown>, argsHash: argsHash as string, outcome: 'unfinished' };
}

function malformed(file: string, record: AuditRecord, what: string): CliError {
  return new CliError(`${file}: record seq ${record.seq}: ${what}; it is not an audit log toolwright replay can read.`, 1);
}
