import type { PipelineStep } from '../call-state.js';
import type { OutputCache } from '../cache/output-cache.js';

/**
 * Step: keeps a cacheable call's output (see `cacheLookupStep`) once it has passed the output checks, so an
 * error or an invalid output is never kept; content results (media, resources) are not kept either. A disk
 * write waits (a `toolwright call` that exits next still leaves its entry); it never fails the call.
 */
export function cacheStoreStep(cache: OutputCache): PipelineStep {
  return {
    stage: 'output',
    run(state) {
      const slot = state.cacheSlot;
      if (slot === undefined || state.blocks !== undefined) return undefined;
      const kept = cache.store(slot, slot.json ?? state.normalised.normalised);
      return kept instanceof Promise ? kept.then(() => undefined) : undefined;
    },
  };
}
