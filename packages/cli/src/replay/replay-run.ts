import path from 'node:path';
import type { ApprovalHandler } from '@toolwright/executor';
import type { CliIo } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import type { EnvironmentFlags } from '../call-environment.js';
import { readRecordedCalls } from './recorded-calls.js';

/**
 * `toolwright replay <log> --run`: the call environment of `toolwright call` (config, policy, project, audit — by
 * default `<workspace>/.toolwright/audit-replay.jsonl`, so replays are never read back as recorded calls of the
 * same log), then `runReplay`. Exit code 1 on any mismatch or call that could not be replayed.
 */
export async function replayRun(options: { log: string; yes: boolean; flags: EnvironmentFlags }, io: CliIo): Promise<number> {
  const recorded = readRecordedCalls(options.log);
  if (options.flags.audit !== undefined && options.flags.audit !== 'none' && path.resolve(options.flags.audit) === path.resolve(options.log))
    throw new CliError('--audit names the log being replayed; give the replay its own log (or --audit none).', 2);
  const { openCallEnvironment } = await import('../call-environment.js');
  const { runReplay } = await import('./run-replay.js');
  const environment = await openCallEnvironment({ ...options.flags, defaultAuditName: 'audit-replay.jsonl' }, io);
  try {
    const summary = await runReplay(
      recorded.calls,
      environment.registry,
      { ...environment.executorOptions, ...(options.yes ? { approve: approveOrdinary } : {}) },
      environment.workspaceRoot,
      io,
    );
    if (recorded.torn) io.err('note: the log ends in a torn line (a crash mid-write); left out\n');
    return summary.mismatched > 0 || summary.failed > 0 ? 1 : 0;
  } finally {
    await environment.close();
  }
}

/** `--yes`: approves calls that need approval, but never a protected path or an escalation (nobody confirms them here). */
const approveOrdinary: ApprovalHandler = async (request) =>
  request.protectedPaths?.length || request.escalation !== undefined
    ? { kind: 'unavailable', message: 'a replay confirms no protected path or escalation; run that call with toolwright call' }
    : { kind: 'once' };
