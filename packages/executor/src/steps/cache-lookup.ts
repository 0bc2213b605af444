import type { PipelineStep, StepOutcome } from '../call-state.js';
import type { OutputCache } from '../cache/output-cache.js';
import { canonicalJson } from '../output/normalize-output.js';

/** A lookup's answer, told apart from the run's outcome in `settle`. */
class CacheHit {
  constructor(readonly json: string) {}
}

/**
 * Step: the output cache in front of the run step (`ExecutorOptions.cache`). It comes after the safety gate,
 * so a cached call is still judged by policy and approval like any other. A `pure` or `deterministic` tool's
 * kept output (a hit) stands in for running it — the JSON copy of the first output — and the call's
 * `ToolCallCompleted` record says `cacheHit`; otherwise (a miss, another determinism level, a cancelled call)
 * the tool runs as usual and `cacheStoreStep` keeps its output once the call has completed.
 */
export function cacheLookupStep(cache: OutputCache, run: PipelineStep, afterHooks: boolean): PipelineStep {
  return {
    stage: 'run',
    run(state) {
      // A call already cancelled is left to the run step, which ends it as such.
      const slot = state.context.signal?.aborted ? undefined : cache.slotFor(state.tool.declaration, state.argsJson, state.context);
      state.cacheSlot = slot;
      if (slot === undefined) return run.run(state);
      const found = cache.lookup(slot);
      const hitOrRun = (json: string | undefined) => (json !== undefined ? new CacheHit(json) : run.run(state));
      return found instanceof Promise ? found.then(hitOrRun) : Promise.resolve(hitOrRun(found));
    },
    settle(state, value) {
      const slot = state.cacheSlot;
      if (value instanceof CacheHit && slot !== undefined) {
        state.output = JSON.parse(value.json) as unknown;
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

/** The output as canonical JSON, or undefined when it has none (the output step then fails the call). */
function ownJson(output: unknown): string | undefined {
  try {
    return canonicalJson(output === undefined ? null : output);
  } catch {
    return undefined;
  }
}
