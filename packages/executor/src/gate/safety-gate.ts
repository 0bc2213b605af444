import type { ToolDeclaration } from '@toolwright/schema';
import type { ApprovalMemory } from '../approval-memory.js';
import type { PipelineStage, ToolError } from '../tool-error.js';
import type { ApprovalAnswer, ApprovalHandler, ApprovalRequest, PathResolver, PolicyPort, PolicyVerdict, RiskAssessment } from '../ports.js';
import { decideGate } from './gate-decision.js';
import { describeThrown } from '../output/describe-thrown.js';

export interface GateInput {
  callId: string;
  declaration: ToolDeclaration;
  args: Record<string, unknown>;
  argsHash: string;
  policy: PolicyPort | undefined;
  /** How the tool host resolves the call's path arguments, for the policy's path rules. */
  resolvePath?: PathResolver | undefined;
  /** The call's risk, assessed only when the policy does not deny it. */
  risk: () => RiskAssessment;
  /** Extra reason to ask (e.g. a doom loop), whatever policy and risk say; no remembered answer covers it. */
  forceAsk: string | undefined;
  memory: ApprovalMemory;
  /** An out-of-band approval verified for exactly this call; consulted only when the call needs approval. */
  preApproved: (() => boolean) | undefined;
  /** The stage the gate is in, kept current so a throwing policy, risk hook or approver is reported as such. */
  progress: { stage: PipelineStage } | undefined;
}

/** The gate's judgement before anyone is asked, and why (`GateDecision.why`). */
export type GateJudgement = { outcome: GateOutcome; why: string } | { ask: ApprovalRequest; verdict?: PolicyVerdict; why: string };

type GateError = Extract<
  ToolError,
  {
    code:
      | 'policy_denied'
      | 'approval_denied'
      | 'approval_required'
      | 'approval_deferred'
      | 'protected_path_unapproved'
      | 'escalation_unapproved'
      | 'internal_error';
  }
>;

/**
 * The gate's outcome. `approval` says who approved or refused (`escalation`: a person confirmed running
 * the call outside the sandbox); `escalation`, on an escalated call, says why it asked to.
 */
export type GateOutcome =
  | { ok: true; verdict?: PolicyVerdict; approval?: 'once' | 'always' | 'remembered' | 'token' | 'policy' | 'escalation'; escalation?: string }
  | { ok: false; verdict?: PolicyVerdict; error: GateError; approval?: 'reject' | 'unavailable' | 'deferred' | 'unconfirmed' | 'invalid'; escalation?: string };

/**
 * What the gate decides before anyone is asked — the one judgement `passSafetyGate` and `previewGate`
 * share: an outcome, or `ask` with the request a person would answer. The policy decides first (a
 * denied call never bothers anyone), then `decideGate` — the decision `explainDecision` shows — says
 * whether the call runs or must be approved; a call that must be approved is covered by an
 * out-of-band token (never for an escalation), or by a remembered `always` (never for a protected path,
 * an escalation, nor a forced ask).
 */
export function judgeGate(input: GateInput): GateJudgement {
  const { progress } = input;
  if (progress) progress.stage = 'policy';
  const verdict = input.policy?.decide({
    tool: input.declaration.name,
    args: input.args,
    declaration: input.declaration,
    ...(input.resolvePath ? { resolvePath: input.resolvePath } : {}),
  });
  if (verdict !== undefined) checkVerdict(verdict);
  if (progress && verdict?.effect !== 'deny') progress.stage = 'risk';
  const gate = decideGate({ verdict, risk: verdict?.effect === 'deny' ? SAFE : input.risk(), forceAsk: input.forceAsk });
  if (gate.decision === 'allow' && !verdict) return RUN_UNASKED; // the common case, without allocating
  const withVerdict = verdict ? { verdict } : {};
  const { why } = gate;
  if (gate.decision === 'deny') return { outcome: { ok: false, ...withVerdict, error: gate.error }, why };
  if (gate.decision === 'allow')
    return { outcome: gate.by === 'policy-rule' ? { ok: true, ...withVerdict, approval: 'policy' } : { ok: true, ...withVerdict }, why };
  if (progress) progress.stage = 'approval';
  const { escalation } = gate;
  // An escalation is approved by a person asked now: a token or an earlier answer was not given for it.
  if (escalation === undefined && input.preApproved?.()) return { outcome: { ok: true, ...withVerdict, approval: 'token' }, why };
  const protectedPaths = [...gate.protectedPaths];
  const request: ApprovalRequest = {
    callId: input.callId,
    tool: input.declaration.name,
    args: input.args,
    argsHash: input.argsHash,
    reason: gate.reason,
    declaration: input.declaration,
    ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
    ...(escalation !== undefined ? { escalation } : {}),
  };
  if (!input.forceAsk && protectedPaths.length === 0 && escalation === undefined && input.memory.lookup(request, input.resolvePath)) {
    return { outcome: { ok: true, ...withVerdict, approval: 'remembered' }, why: 'approved earlier in this session' };
  }
  return { ask: request, ...withVerdict, why };
}

/**
 * The safety gate of the pipeline: `judgeGate`, then, for a call that must be approved, the approval
 * callback; its approval counts for a protected path only with `confirmProtected`, for an escalation
 * only with `confirmEscalation`. Without a callback a call that needs approval is refused, never run.
 */
export function passSafetyGate(input: GateInput, approve: ApprovalHandler | undefined): GateOutcome | Promise<GateOutcome> {
  return settleJudgement(input, judgeGate(input), approve);
}

/**
 * The safety gate for a call judged ahead of its run (`ToolExecutor.judgeCall`), without judging it again: an
 * outcome stands; a call that must be approved is covered by an out-of-band approval given since (`preApproved`,
 * never for an escalation), or goes to the approval callback as `passSafetyGate` would send it.
 */
export function passJudgedGate(input: GateInput, judged: GateJudgement, approve: ApprovalHandler | undefined): GateOutcome | Promise<GateOutcome> {
  if ('ask' in judged) {
    if (input.progress) input.progress.stage = 'approval';
    if (judged.ask.escalation === undefined && input.preApproved?.())
      return { ok: true, ...(judged.verdict ? { verdict: judged.verdict } : {}), approval: 'token' };
  }
  return settleJudgement(input, judged, approve);
}

/** What a judgement comes to: an outcome stands; an ask goes to the approval callback (refused without one). */
function settleJudgement(input: GateInput, judged: GateJudgement, approve: ApprovalHandler | undefined): GateOutcome | Promise<GateOutcome> {
  if ('outcome' in judged) return judged.outcome;
  const { ask: request, verdict } = judged;
  if (!approve) return { ok: false, ...outcomeFacts(request, verdict), error: nobodyAsked(request) };
  // A handler that answers without a promise is taken at its word, then judged like any other answer.
  return Promise.resolve(approve(request)).then((answer: unknown) => judgeAnswer(input, request, verdict, answer));
}

/** A policy port's answer must be a verdict: anything else is the policy's failure, never an allow. */
export function checkVerdict(verdict: PolicyVerdict): void {
  const effect: unknown = typeof verdict === 'object' && verdict !== null ? verdict.effect : undefined;
  if (effect !== 'allow' && effect !== 'ask' && effect !== 'deny')
    throw new TypeError(`the policy answered ${describeAnswer(verdict)}, which is not a verdict`);
}

const SAFE: RiskAssessment = { level: 'safe', reason: 'not assessed: the policy denies the call' };
const RUN_UNASKED: GateJudgement = Object.freeze({ outcome: Object.freeze({ ok: true }), why: 'it is safe to run unasked' });

/**
 * What an approver's answer means for this call; anything but a well-formed approval refuses it. An
 * escalation needs `confirmEscalation` and is approved for this call only (an `always` is not remembered).
 */
function judgeAnswer(input: GateInput, request: ApprovalRequest, verdict: PolicyVerdict | undefined, answer: unknown): GateOutcome {
  const withVerdict = outcomeFacts(request, verdict);
  const paths = request.protectedPaths ?? [];
  const { escalation } = request;
  const kind = typeof answer === 'object' && answer !== null ? (answer as { kind?: unknown }).kind : undefined;
  const message = typeof answer === 'object' && answer !== null ? (answer as { message?: unknown }).message : undefined;
  const said = typeof message === 'string' && message !== '' ? { message: describeThrown(message, '').message } : {};
  switch (kind) {
    case 'reject':
      return { ok: false, ...withVerdict, approval: 'reject', error: { code: 'approval_denied', reason: request.reason, ...said } };
    case 'deferred':
      return {
        ok: false,
        ...withVerdict,
        approval: 'deferred',
        error: { code: 'approval_deferred', message: said.message ?? 'the question went to someone who answers later' },
      };
    case 'unavailable':
      return {
        ok: false,
        ...withVerdict,
        approval: 'unavailable',
        error: nobodyAsked(request, said),
      };
    case 'once':
    case 'always': {
      const approved = answer as Extract<ApprovalAnswer, { kind: 'once' | 'always' }>;
      if (escalation !== undefined && approved.confirmEscalation !== true) {
        return { ok: false, ...withVerdict, approval: 'unconfirmed', error: { code: 'escalation_unapproved', escalation, approval: 'blanket' } };
      }
      if (paths.length > 0 && approved.confirmProtected !== true) {
        return { ok: false, ...withVerdict, approval: 'unconfirmed', error: { code: 'protected_path_unapproved', paths: [...paths], approval: 'blanket' } };
      }
      if (escalation !== undefined) return { ok: true, ...withVerdict, approval: 'escalation' };
      if (approved.kind === 'always') input.memory.remember(request, approved);
      return { ok: true, ...withVerdict, approval: approved.kind };
    }
    default:
      return {
        ok: false,
        ...withVerdict,
        approval: 'invalid',
        error: {
          code: 'internal_error',
          stage: 'approval',
          ran: false,
          message: `the approval handler answered ${describeAnswer(answer)}, which is not an approval`,
        },
      };
  }
}

/** The verdict and the escalation, as every outcome of an asked call carries them. */
function outcomeFacts(request: ApprovalRequest, verdict: PolicyVerdict | undefined): { verdict?: PolicyVerdict; escalation?: string } {
  return { ...(verdict ? { verdict } : {}), ...(request.escalation !== undefined ? { escalation: request.escalation } : {}) };
}

/** The refusal when nobody could be asked (no approver, or it answered `unavailable`). */
function nobodyAsked(request: ApprovalRequest, said: { message?: string } = {}): GateError {
  if (request.escalation !== undefined) return { code: 'escalation_unapproved', escalation: request.escalation, approval: 'none' };
  if (request.protectedPaths) return { code: 'protected_path_unapproved', paths: [...request.protectedPaths], approval: 'none' };
  return { code: 'approval_required', reason: request.reason, ...said };
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'nothing';
  try {
    const json = JSON.stringify(answer) as string | undefined;
    if (json !== undefined) return json.slice(0, 200);
    // What JSON leaves out: a function or a symbol (worded as itself), an object whose toJSON gives nothing.
    return typeof answer === 'function' || typeof answer === 'symbol' ? String(answer) : 'an object JSON cannot show';
  } catch {
    return 'an unreadable value';
  }
}
