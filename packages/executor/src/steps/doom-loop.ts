import type { CallState, PipelineStep } from '../call-state.js';

/** Detects a model repeating the same call with the same result (opencode's "doom loop"). */
export class DoomLoopGuard {
  private readonly history = new Map<string, { key: string; outputHash: string | undefined }[]>();

  constructor(private readonly threshold = 3) {}

  /**
   * True when the last `threshold` calls of this session were this exact call (tool + argument hash)
   * and all returned the same output: running it again would change nothing. Polling and paging stay
   * legal because their results (or arguments) differ.
   */
  isLooping(session: string, tool: string, argsHash: string): boolean {
    const entries = this.history.get(session);
    if (!entries || entries.length < this.threshold) return false;
    const key = `${tool}\u0000${argsHash}`;
    const recent = entries.slice(-this.threshold);
    const first = recent[0]!;
    return first.outputHash !== undefined && recent.every((e) => e.key === key && e.outputHash === first.outputHash);
  }

  record(session: string, tool: string, argsHash: string, outputHash: string | undefined): void {
    const entries = this.history.get(session) ?? [];
    entries.push({ key: `${tool}\u0000${argsHash}`, outputHash });
    if (entries.length > this.threshold) entries.splice(0, entries.length - this.threshold);
    this.history.set(session, entries);
  }
}

/** The executor's doom-loop settings: its guard, how many repeats count, what a loop gets, and whose calls are compared. */
export interface DoomLoopSettings {
  guard: DoomLoopGuard;
  threshold: number;
  action: 'ask' | 'deny';
  per: 'caller' | 'executor';
}

/** Whose calls this one is compared with, or undefined when nobody's (a server that cannot tell its clients apart). */
function scopeOf(state: CallState, per: DoomLoopSettings['per']): string | undefined {
  if (per === 'executor') return 'executor';
  const { repeatScope, sessionId } = state.context;
  if (repeatScope === false) return undefined;
  return repeatScope ?? sessionId ?? 'default';
}

/** Step: a call that would repeat a loop is refused (`deny`) or must be approved by a person (`ask`). */
export function doomLoopCheckStep({ guard, threshold, action, per }: DoomLoopSettings): PipelineStep {
  return {
    stage: 'doom_loop',
    run(state) {
      const scope = scopeOf(state, per);
      if (scope === undefined || !guard.isLooping(scope, state.call.name, state.argsHash)) return undefined;
      if (action === 'deny') return state.audit.rejectAfterRequest({ code: 'doom_loop', repeats: threshold });
      state.forceAsk = `the same call returned the same result ${threshold} times in a row`;
      return undefined;
    },
  };
}

/** Step: remembers this call and its output's hash, for the next check. */
export function doomLoopRecordStep({ guard, per }: DoomLoopSettings): PipelineStep {
  return {
    stage: 'output',
    run(state) {
      const scope = scopeOf(state, per);
      if (scope !== undefined) guard.record(scope, state.call.name, state.argsHash, state.normalised.hash);
      return undefined;
    },
  };
}
