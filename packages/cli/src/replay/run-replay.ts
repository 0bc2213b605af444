import { ToolExecutor, argumentsHash, escapeTerminalControls, type ExecutorOptions, type ToolCallResult } from '@toolwright/executor';
import type { ToolRegistry } from '@toolwright/registry';
import type { CliIo } from '../cli-command.js';
import { outputDiff } from './output-diff.js';
import type { RecordedCall } from './recorded-calls.js';
import { replayRefusal } from './replay-refusal.js';

/** What `replay --run` found: the exit code follows `mismatched` and `failed`. */
export interface ReplaySummary {
  matched: number;
  mismatched: number;
  /** Calls that could not be re-run to a result: refused by the gate, failed, or of a tool no longer registered. */
  failed: number;
  /** Calls of tools that are not re-run (they change the world, or are not pure or deterministic), by tool, with why. */
  skipped: Map<string, { count: number; reason: string }>;
  /** Calls the log does not show completed: there is no output to compare with. */
  notCompleted: number;
}

/**
 * `toolwright replay <log> --run`: re-runs the completed calls of read-only `pure` and `deterministic` tools that
 * declare no write or spawn side effect (`replayRefusal`) through the executor — with the same policy, approval and
 * audit as any call: a replay bypasses nothing — and compares the sha-256 of each normalised output with the one the
 * log recorded, printing a diff of the outputs for each mismatch. Calls with the same tool and arguments (hashed
 * again here: the log's `argsHash` is not trusted) run once. Other calls are skipped, and said why. The output cache
 * is never read: a replay that a cache answers compares the cache with itself.
 */
export async function runReplay(
  calls: readonly RecordedCall[],
  registry: ToolRegistry,
  executorOptions: Partial<ExecutorOptions>,
  workspace: string,
  io: CliIo,
): Promise<ReplaySummary> {
  const options = { ...executorOptions };
  delete options.cache;
  const executor = new ToolExecutor({ ...options, registry });
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
    const reason = replayRefusal(tool.declaration.metadata);
    if (reason !== undefined) {
      const skipped = summary.skipped.get(call.tool) ?? { count: 0, reason };
      skipped.count++;
      summary.skipped.set(call.tool, skipped);
      continue;
    }
    const key = argumentsKey(call);
    if (key instanceof Error) {
      summary.failed++;
      say(`FAIL   ${name}: ${key.message}`);
      continue;
    }
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
  for (const [tool, { count, reason }] of summary.skipped) say(`skip   ${count} call${count === 1 ? '' : 's'} of ${tool}: ${reason}`);
  if (summary.notCompleted > 0)
    say(`skip   ${summary.notCompleted} call${summary.notCompleted === 1 ? '' : 's'} the log does not show completed (no output to compare)`);
  say(`${summary.matched} matched, ${summary.mismatched} differ, ${summary.failed} failed`);
  return summary;
}

/** The tool and the sha-256 of the arguments' canonical JSON, as the executor hashes them; an error when they have no JSON form. */
function argumentsKey(call: RecordedCall): string | Error {
  try {
    return `${call.tool}\u0000${argumentsHash(call.args)}`;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
