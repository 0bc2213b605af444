import type { PipelineStep } from '../call-state.js';

export type CapabilityCheck = (required: readonly string[], granted: readonly string[]) => { allowed: boolean; missing: string[] };

export interface CapabilityOutcome {
  allowed: boolean;
  granted: readonly string[];
  missing: string[];
}

/**
 * Step: the tool's required capabilities against those granted to the caller (the call's own grant,
 * else the executor's `granted`, else everything), recorded as a `CapabilityCheck`. `*` grants all;
 * `fs.*` grants every `fs.` capability.
 */
export function capabilityStep(granted: readonly string[] | undefined, check: CapabilityCheck = defaultCapabilityCheck): PipelineStep {
  return {
    stage: 'capabilities',
    run(state) {
      const outcome = checkGrantedCapabilities(state.tool.declaration.metadata.capabilities, state.context.capabilities ?? granted ?? ['*'], check);
      const { allowed, granted: given, missing } = outcome;
      state.audit.note({ type: 'CapabilityCheck', callId: state.call.id, required: state.tool.declaration.metadata.capabilities, granted: given, missing, allowed });
      return outcome.allowed ? undefined : state.audit.rejectAfterRequest({ code: 'capability_denied', missing: outcome.missing });
    },
  };
}

export function checkGrantedCapabilities(required: readonly string[], granted: readonly string[], check: CapabilityCheck): CapabilityOutcome {
  if (required.length === 0) return { allowed: true, granted, missing: [] };
  const { allowed, missing } = check(required, granted);
  return { allowed, granted, missing };
}

export function defaultCapabilityCheck(required: readonly string[], granted: readonly string[]): { allowed: boolean; missing: string[] } {
  const covers = (grant: string, need: string) => grant === '*' || grant === need || (grant.endsWith('.*') && need.startsWith(grant.slice(0, -1)));
  const missing = required.filter((need) => !granted.some((grant) => covers(grant, need)));
  return { allowed: missing.length === 0, missing };
}
