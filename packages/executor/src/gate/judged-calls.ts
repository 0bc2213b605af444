import type { JudgedPaths } from '@toolwright/tool';
import type { CallContext } from '../executor-options.js';
import type { JudgedCall } from '../judged-call.js';
import type { GateJudgement } from './safety-gate.js';

/** What a run takes from a judgement made ahead of it. */
export interface CarriedJudgement {
  judgement: GateJudgement;
  /** What the gate judged the call's paths by, handed to the tool as if judged in the run (`judgingGate`). */
  judgedPaths: JudgedPaths | undefined;
}

interface Kept extends CarriedJudgement {
  expires: number;
  /** What of the context the gate judged by (`gateContext`): a run in another context judges afresh. */
  context: GateContext;
}

/** The parts of a call's context the gate's judgement depends on. */
interface GateContext {
  key: string;
  workspaceRules: unknown;
}

/** Who calls, in which session and workspace, with which capabilities and rules: what a judgement holds for. */
function gateContext(context: CallContext): GateContext {
  const key = JSON.stringify([context.sessionId ?? null, context.actorId ?? null, context.workspace ?? null, context.capabilities ?? null]);
  return { key, workspaceRules: context.workspaceRules };
}

/**
 * The judgements an executor made ahead of runs, kept by the `JudgedCall` each was handed out as (a weak map:
 * a judgement never run costs nothing once dropped). Taking one for a run consumes it.
 */
export class JudgedCalls {
  private readonly kept = new WeakMap<object, Kept>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Hands out a judgement made now as a `JudgedCall`. */
  issue(judged: JudgedCall, carried: CarriedJudgement, context: CallContext): JudgedCall {
    const handle = Object.freeze({ ...judged });
    this.kept.set(handle, { ...carried, expires: this.now() + this.ttlMs, context: gateContext(context) });
    return handle;
  }

  /**
   * The judgement a run may use instead of judging: this executor's, for exactly this call in the same context (session,
   * actor, workspace, capabilities, workspace rules), unexpired and unused.
   */
  take(judged: unknown, call: { callId: string; tool: string; argsHash: string }, context: CallContext): CarriedJudgement | undefined {
    if (typeof judged !== 'object' || judged === null) return undefined;
    const kept = this.kept.get(judged);
    if (!kept) return undefined;
    this.kept.delete(judged);
    const handle = judged as JudgedCall;
    if (handle.callId !== call.callId || handle.tool !== call.tool || handle.argsHash !== call.argsHash || kept.expires < this.now()) return undefined;
    const now = gateContext(context);
    if (now.key !== kept.context.key || now.workspaceRules !== kept.context.workspaceRules) return undefined;
    return { judgement: kept.judgement, judgedPaths: kept.judgedPaths };
  }
}
