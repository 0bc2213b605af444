import type { PipelineStep } from '../call-state.js';

export type CapabilityCheck = (required: readonly string[], granted: readonly string[]) => { allowed: boolean; missing: string[] };

/**
 * Step: the tool's required capabilities against those granted to the caller (the call's own grant,
 * else the executor's `granted`, else everything), recorded as a `CapabilityCheck`. `*` grants all;
 * `fs.*` grants every `fs.` capability.
 */
export function capabilityStep(granted: readonly string[] | undefined, check: CapabilityCheck = defaultCapabilityCheck): PipelineStep {
  return {
    stage: 'capabilities',
    run(state) {
      const required = state.tool.declaration.metadata.capabilities;
      const given = state.context.capabilities ?? granted ?? ALL;
      if (required.length === 0) {
        state.audit.note({ type: 'CapabilityCheck', callId: state.call.id, required, granted: given, missing: NONE, allowed: true });
        return undefined;
      }
      const { allowed, missing } = check(required, given);
      state.audit.note({ type: 'CapabilityCheck', callId: state.call.id, required, granted: given, missing, allowed });
      return allowed ? undefined : state.audit.rejectAfterRequest({ code: 'capability_denied', missing });
    },
  };
}

const ALL: readonly string[] = Object.freeze(['*']);
const NONE: readonly string[] = Object.freeze([]);

export function defaultCapabilityCheck(required: readonly string[], granted: readonly string[]): { allowed: boolean; missing: string[] } {
  const covers = (grant: string, need: string) => grant === '*' || grant === need || (grant.endsWith('.*') && need.startsWith(grant.slice(0, -1)));
  const missing = required.filter((need) => !granted.some((grant) => covers(grant, need)));
  return { allowed: missing.length === 0, missing };
}
