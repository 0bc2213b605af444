import type { ToolRegistry } from '@toolwright/registry';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import { conflicts, resourcesOf, type CallResources } from './call-resources.js';
import { errorResult } from './error-result.js';
import type { EventBus } from './events.js';
import type { BatchOptions, CallContext } from './executor-options.js';
import { parseArguments, type ParseLimits } from './arguments/parse-arguments.js';
import { describeThrown } from './output/describe-thrown.js';
import { sanitiseCall } from './sanitise-call.js';

/** What a batch needs: the registry and parse limits to plan calls, events to announce it, and how to run or skip a call. */
export interface BatchServices {
  registry: ToolRegistry;
  parseLimits: ParseLimits;
  events: EventBus;
  run: (call: ToolCall) => Promise<ToolCallResult>;
  skip: (call: ToolCall, reason: string) => ToolCallResult;
}

/**
 * `ToolExecutor.executeBatch`: plans each call's resources (from its arguments when they parse), runs
 * the turn with `runBatch`, and announces its start and end. It never rejects: a call it cannot plan is
 * a barrier, and anything unexpected becomes an `internal_error` result for each call.
 */
export async function executeBatch(
  executor: BatchServices,
  calls: readonly ToolCall[],
  context: CallContext,
  options: BatchOptions,
): Promise<ToolCallResult[]> {
  const list: readonly ToolCall[] = Array.isArray(calls) ? calls : [];
  try {
    const calls = list.map((call) =>
      typeof call === 'object' && call !== null && typeof call.id === 'string' && typeof call.name === 'string' ? call : sanitiseCall(call),
    );
    const batchId = `batch_${calls[0]?.id ?? 'empty'}_${calls.length}`;
    executor.events.emit({ type: 'tool_calls_batch_start', batchId, callIds: calls.map((c) => c.id) });
    const entries = calls.map((call) => ({ call, resources: plan(executor, call) }));
    const interrupted = () => {
      try {
        return Boolean(options.interrupted?.() || context.signal?.aborted);
      } catch {
        return true; // a host check that throws cannot promise the user did not interrupt
      }
    };
    const results = await runBatch(entries, executor.run, executor.skip, {
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      interrupted,
    });
    executor.events.emit({ type: 'tool_calls_batch_end', batchId, results });
    return results;
  } catch (error) {
    const message = describeThrown(error, 'the batch').message;
    return list.map((call) => errorResult(sanitiseCall(call), { code: 'internal_error', stage: 'lookup', ran: false, message }, 0));
  }
}

/** What a call touches; a call that cannot be read is a write barrier. */
function plan(executor: BatchServices, call: ToolCall): CallResources {
  try {
    const declaration = executor.registry.get(call.name)?.declaration;
    const parsed = declaration ? parseArguments(call.arguments, executor.parseLimits) : undefined;
    return resourcesOf(declaration, parsed?.ok ? parsed.value : undefined);
  } catch {
    return { access: 'write' };
  }
}

export interface BatchPlanEntry {
  call: ToolCall;
  resources: CallResources;
}

export interface BatchRunOptions {
  /** Most calls running at once (default 16). */
  concurrency?: number;
  /** Checked before each call starts: true when the user interrupted, so the rest are skipped. */
  interrupted?: () => boolean;
}

/**
 * Runs one model turn's calls. Each call waits for every earlier call it conflicts with (see
 * `conflicts`): contiguous reads run together, a write with unknown targets is a barrier, and writes
 * to disjoint paths may overlap while a read of a path waits for pending writes to it. Results come
 * back in call order; calls not started before an interruption get a `skipped` placeholder.
 */
export async function runBatch(
  entries: readonly BatchPlanEntry[],
  run: (call: ToolCall) => Promise<ToolCallResult>,
  skip: (call: ToolCall, reason: string) => ToolCallResult,
  options: BatchRunOptions = {},
): Promise<ToolCallResult[]> {
  const requested = options.concurrency ?? 16;
  const limit = requested >= 1 ? requested : 1; // NaN or less than one: one at a time, never none
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = () =>
    running < limit
      ? (running++, Promise.resolve())
      : new Promise<void>((resolve) =>
          waiting.push(() => {
            running++;
            resolve();
          }),
        );
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  const done: Promise<ToolCallResult>[] = [];
  entries.forEach((entry, index) => {
    const dependencies = done.filter((_, earlier) => conflicts(entries[earlier]!.resources, entry.resources));
    done[index] = Promise.allSettled(dependencies).then(async () => {
      if (options.interrupted?.()) return skip(entry.call, 'the user interrupted before this call ran');
      await acquire();
      try {
        if (options.interrupted?.()) return skip(entry.call, 'the user interrupted before this call ran');
        return await run(entry.call);
      } finally {
        release();
      }
    });
  });
  return Promise.all(done);
}
