import { isToolContent } from '@toolwright/tool';
import type { CallState, PipelineStep, StepOutcome } from '../call-state.js';
import type { OutputCache } from '../cache/output-cache.js';
import type { SchemaValidator } from '../arguments/schema-validator.js';
import { canonicalJson } from '../output/normalize-output.js';

/** A lookup's answer, told apart from the run's outcome in `settle`. */
class CacheHit {
  constructor(readonly output: unknown) {}
}

/**
 * Step: the output cache in front of the run step (`ExecutorOptions.cache`). It comes after the safety gate,
 * so a cached call is still judged by policy and approval like any other. A cacheable call's kept output (a hit:
 * see `OutputCache.slotFor`) stands in for running it — the JSON copy of the first output — and the call's
 * `ToolCallCompleted` record says `cacheHit`; otherwise (a miss, a tool that may not be cached, a cancelled call)
 * the tool runs as usual and `cacheStoreStep` keeps its output once the call has completed. A kept output that is
 * not JSON, is a content result or fails the tool's `returns` schema is corrupt: it is removed and the tool runs.
 */
export function cacheLookupStep(cache: OutputCache, run: PipelineStep, afterHooks: boolean, validator: SchemaValidator): PipelineStep {
  return {
    stage: 'run',
    run(state) {
      const { signal } = state.context;
      // A call already cancelled is left to the run step, which ends it as such.
      const slot = signal?.aborted ? undefined : cache.slotFor(state.tool.declaration, state.argsJson, state.context);
      state.cacheSlot = slot;
      if (slot === undefined) return run.run(state);
      const found = cache.lookup(slot, signal);
      const hitOrRun = (json: string | undefined): unknown => {
        // Cancelled while the disk answered: the run step ends the call as cancelled.
        if (json === undefined || signal?.aborted) return run.run(state);
        const output = hitOutput(state, validator, json);
        if (output !== corrupt) return new CacheHit(output);
        const evicted = cache.evict(slot);
        return evicted instanceof Promise ? evicted.then(() => run.run(state)) : run.run(state);
      };
      return found instanceof Promise ? found.then(hitOrRun) : Promise.resolve(hitOrRun(found));
    },
    settle(state, value) {
      const slot = state.cacheSlot;
      if (value instanceof CacheHit && slot !== undefined) {
        state.output = value.output;
        state.audit.cacheHit = slot.store;
        state.cacheSlot = undefined; // nothing to keep again
        return undefined;
      }
      const outcome = run.settle ? run.settle(state, value) : (value as StepOutcome);
      // After-hooks may change the output the pipeline goes on with: the tool's own output is what is kept.
      const ran = (settled: StepOutcome): StepOutcome => {
        if (slot !== undefined && settled === undefined && afterHooks) {
          slot.json = ownJson(state.output);
          if (slot.json === undefined) state.cacheSlot = undefined;
        }
        return settled;
      };
      return outcome instanceof Promise ? outcome.then(ran) : ran(outcome);
    },
  };
}

const corrupt = Symbol('corrupt');

/** A kept output as the call would have returned it, or `corrupt` when the tool could not have returned it. */
function hitOutput(state: CallState, validator: SchemaValidator, json: string): unknown {
  let output: unknown;
  try {
    output = JSON.parse(json) as unknown;
  } catch {
    return corrupt;
  }
  if (isToolContent(output)) return corrupt; // content results are never kept
  const { returns } = state.tool.declaration;
  if (returns !== undefined && validator.validate(returns, output).length > 0) return corrupt;
  return output;
}

/** The output as canonical JSON, or undefined when it has none (the output step then fails the call). */
function ownJson(output: unknown): string | undefined {
  try {
    return canonicalJson(output === undefined ? null : output);
  } catch {
    return undefined;
  }
}
