import type { ToolDeclaration } from '@toolwright/schema';
import type { PipelineStage, ToolError } from '../tool-error.js';
import type { ApprovalAnswer, ApprovalHandler, ApprovalRequest, PathResolver, PolicyPort, PolicyVerdict, RiskAssessment } from '../ports.js';
import { decideGate } from './gate-decision.js';
import { describeThrown } from './describe-thrown.js';

/** Remembers `always` answers for the session and answers matching calls without asking again. */
export interface ApprovalMemory {
  /** `resolvePath`: how the tool host resolves the call's path arguments, for approvals scoped to a path pattern. */
  lookup(request: ApprovalRequest, resolvePath?: PathResolver): boolean;
  remember(request: ApprovalRequest, answer: Extract<ApprovalAnswer, { kind: 'always' }>): void;
}

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
  /** Extra reason to ask (e.g. a doom loop), whatever policy and risk say. */
  forceAsk: string | undefined;
  approve: ApprovalHandler | undefined;
  memory: ApprovalMemory;
  /** An out-of-band approval verified for exactly this call; consulted only when the call needs approval. */
  preApproved: (() => boolean) | undefined;
  /** The stage the gate is in, kept current so a throwing policy, risk hook or approver is reported as such. */
  progress: { stage: PipelineStage };
}

type GateError = Extract<ToolError, { code: 'policy_denied' | 'approval_denied' | 'approval_required' | 'protected_path_unapproved' | 'internal_error' }>;

export type GateOutcome =
  | { ok: true; verdict?: PolicyVerdict; approval?: 'once' | 'always' | 'remembered' | 'token' | 'policy' }
  | { ok: false; verdict?: PolicyVerdict; error: GateError; approval?: 'reject' | 'unavailable' | 'unconfirmed' | 'invalid' };

/**
 * Steps 4–5 of the pipeline. The policy decides first (a denied call never bothers anyone), then
 * `decideGate` — the decision `explainDecision` shows — says whether the call runs, or must be approved.
 * Approval comes from an out-of-band token, a remembered `always`, or the approval callback; a call
 * touching a protected path is never answered from memory, and the callback's approval counts for it only
 * with `confirmProtected`. Without a callback a call that needs approval is refused, never run.
 */
export function passSafetyGate(input: GateInput): GateOutcome | Promise<GateOutcome> {
  const { progress } = input;
  progress.stage = 'policy';
  const verdict = input.policy?.decide({ tool: input.declaration.name, args: input.args, declaration: input.declaration, ...(input.resolvePath ? { resolvePath: input.resolvePath } : {}) });
  if (verdict !== undefined) checkVerdict(verdict);
  if (verdict?.effect !== 'deny') progress.stage = 'risk';
  const gate = decideGate({ verdict, risk: verdict?.effect === 'deny' ? SAFE : input.risk(), forceAsk: input.forceAsk });
  if (gate.decision === 'allow' && !verdict) return RUN_UNASKED; // the common case, without allocating
  const withVerdict = verdict ? { verdict } : {};
  if (gate.decision === 'deny') return { ok: false, ...withVerdict, error: gate.error };
  if (gate.decision === 'allow') return gate.by === 'policy-rule' ? { ok: true, ...withVerdict, approval: 'policy' } : { ok: true, ...withVerdict };
  progress.stage = 'approval';
  if (input.preApproved?.()) return { ok: true, ...withVerdict, approval: 'token' };
  const protectedPaths = [...gate.protectedPaths];
  const request: ApprovalRequest = {
    callId: input.callId, tool: input.declaration.name, args: input.args, argsHash: input.argsHash,
    reason: gate.reason, declaration: input.declaration, ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
  };
  if (!input.forceAsk && protectedPaths.length === 0 && input.memory.lookup(request, input.resolvePath)) return { ok: true, ...withVerdict, approval: 'remembered' };
  if (!input.approve) {
    return { ok: false, ...withVerdict, error: protectedPaths.length > 0 ? { code: 'protected_path_unapproved', paths: protectedPaths, approval: 'none' } : { code: 'approval_required', reason: request.reason } };
  }
  // A handler that answers without a promise is taken at its word, then judged like any other answer.
  return Promise.resolve(input.approve(request)).then((answer: unknown) => judgeAnswer(input, request, verdict, answer));
}

/** A policy port's answer must be a verdict: anything else is the policy's failure, never an allow. */
export function checkVerdict(verdict: PolicyVerdict): void {
  const effect: unknown = typeof verdict === 'object' && verdict !== null ? verdict.effect : undefined;
  if (effect !== 'allow' && effect !== 'ask' && effect !== 'deny') throw new TypeError(`the policy answered ${describeAnswer(verdict)}, which is not a verdict`);
}

const SAFE: RiskAssessment = { level: 'safe', reason: 'not assessed: the policy denies the call' };
const RUN_UNASKED: GateOutcome = Object.freeze({ ok: true });

/** What an approver's answer means for this call; anything but a well-formed approval refuses it. */
function judgeAnswer(input: GateInput, request: ApprovalRequest, verdict: PolicyVerdict | undefined, answer: unknown): GateOutcome {
  const withVerdict = verdict ? { verdict } : {};
  const paths = request.protectedPaths ?? [];
  const kind = typeof answer === 'object' && answer !== null ? (answer as { kind?: unknown }).kind : undefined;
  const message = typeof answer === 'object' && answer !== null ? (answer as { message?: unknown }).message : undefined;
  const said = typeof message === 'string' && message !== '' ? { message: describeThrown(message, '').message } : {};
  switch (kind) {
    case 'reject':
      return { ok: false, ...withVerdict, approval: 'reject', error: { code: 'approval_denied', reason: request.reason, ...said } };
    case 'unavailable':
      return {
        ok: false, ...withVerdict, approval: 'unavailable',
        error: paths.length > 0 ? { code: 'protected_path_unapproved', paths: [...paths], approval: 'none' } : { code: 'approval_required', reason: request.reason, ...said },
      };
    case 'once':
    case 'always': {
      const approved = answer as Extract<ApprovalAnswer, { kind: 'once' | 'always' }>;
      if (paths.length > 0 && approved.confirmProtected !== true) {
        return { ok: false, ...withVerdict, approval: 'unconfirmed', error: { code: 'protected_path_unapproved', paths: [...paths], approval: 'blanket' } };
      }
      if (approved.kind === 'always') input.memory.remember(request, approved);
      return { ok: true, ...withVerdict, approval: approved.kind };
    }
    default:
      return {
        ok: false, ...withVerdict, approval: 'invalid',
        error: { code: 'internal_error', stage: 'approval', ran: false, message: `the approval handler answered ${describeAnswer(answer)}, which is not an approval` },
      };
  }
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'nothing';
  try {
    return JSON.stringify(answer)?.slice(0, 200) ?? String(answer);
  } catch {
    return 'an unreadable value';
  }
}
