import { ToolExecutor, escapeTerminalControls, type ExecutorOptions, type ToolCallResult } from '@toolwright/executor';
import type { ToolRegistry } from '@toolwright/registry';
import type { CliIo } from '../cli-command.js';
import { outputDiff } from './output-diff.js';
import type { RecordedCall } from './recorded-calls.js';

/** What `replay --run` found: the exit code follows `mismatched` and `failed`. */
export interface ReplaySummary {
  matched: number;
  mismatched: number;
  /** Calls that could not be re-run to a result: refused by the gate, failed, or of a tool no longer registered. */
  failed: number;
  /** Calls of tools whose determinism allows no replay (`maybe`, `non-deterministic`), by tool. */
  skipped: Map<string, { count: number; determinism: string }>;
  /** Calls the log does not show completed: there is no output to compare with. */
  notCompleted: number;
}

/**
 * `toolwright replay <log> --run`: re-runs the completed calls of `pure` and `deterministic` tools through the
 * executor — with the same policy, approval and audit as any call: a replay bypasses nothing — and compares the
 * sha-256 of each normalised output with the one the log recorded, printing a diff of the outputs for each
 * mismatch. Calls with the same tool and arguments run once. Other determinism levels are skipped, and said so.
 */
export async function runReplay(
  calls: readonly RecordedCall[],
  registry: ToolRegistry,
  executorOptions: Partial<ExecutorOptions>,
  workspace: string,
  io: CliIo,
): Promise<ReplaySummary> {
  const executor = new ToolExecutor({ ...executorOptions, registry });
  const summary: ReplaySummary = { matched: 0, mismatched: 0, failed: 0, skipped: new Map(), notCompleted: 0 };
  const runs = new Map<string, Promise<ToolCallResult>>();
  const runId = Date.now().toString(36);
  const say = (line: string) => io.out(`${escapeTerminalControls(line)}\n`);
  for (const call of calls) {
    const name = `seq ${call.seq} ${call.tool} (${call.callId})`;
    if (call.outcome !== 'completed' || call.outputHash === undefined) {
      summary.notCompleted++;
      continue;
    }
    const tool = registry.get(call.tool);
    if (!tool) {
      summary.failed++;
      say(`FAIL   ${name}: no tool named '${call.tool}' is registered now (pass --project for a project's tools)`);
      continue;
    }
    const { determinism } = tool.declaration.metadata;
    if (determinism !== 'pure' && determinism !== 'deterministic') {
      const skipped = summary.skipped.get(call.tool) ?? { count: 0, determinism };
      skipped.count++;
      summary.skipped.set(call.tool, skipped);
      continue;
    }
    const key = `${call.tool}\u0000${call.argsHash}`;
    let pending = runs.get(key);
    if (!pending) {
      // The repeated-call guard is off for replays: the same call recorded many times is replayed on purpose.
      pending = executor.executeToolCall(
        { id: `replay_${runId}_${call.callId}`, name: call.tool, arguments: JSON.stringify(call.args) },
        { workspace, repeatScope: false },
      );
      runs.set(key, pending);
    }
    const result = await pending;
    if (result.status === 'error') {
      summary.failed++;
      say(`FAIL   ${name}: the replay ended as ${result.error.code}: ${result.content}`);
    } else if (result.outputHash === call.outputHash) {
      summary.matched++;
      say(`ok     ${name}`);
    } else {
      summary.mismatched++;
      say(`DIFFER ${name}: output sha-256 ${result.outputHash}, recorded ${call.outputHash}`);
      say(outputDiff(call.output, JSON.parse(JSON.stringify(result.output ?? null)) as unknown, `${call.tool} ${call.callId}`));
    }
  }
  for (const [tool, { count, determinism }] of summary.skipped)
    say(`skip   ${count} call${count === 1 ? '' : 's'} of ${tool}: its determinism is '${determinism}' (only pure and deterministic tools are replayed)`);
  if (summary.notCompleted > 0)
    say(`skip   ${summary.notCompleted} call${summary.notCompleted === 1 ? '' : 's'} the log does not show completed (no output to compare)`);
  say(`${summary.matched} matched, ${summary.mismatched} differ, ${summary.failed} failed`);
  return summary;
}
