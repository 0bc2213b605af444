import type { ToolCall, ToolCallResult } from './tool-call.js';
import { conflicts, type CallResources } from './call-resources.js';

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
  const limit = Math.max(1, options.concurrency ?? 16);
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (running < limit ? (running++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(() => { running++; resolve(); })));
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
