import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolError } from '../tool-error.js';
import type { ApprovalAnswer, ApprovalHandler, ApprovalRequest, PolicyPort, PolicyVerdict, RiskLevel } from '../ports.js';

/** Remembers `always` answers for the session and answers matching calls without asking again. */
export interface ApprovalMemory {
  lookup(request: ApprovalRequest): boolean;
  remember(request: ApprovalRequest, answer: Extract<ApprovalAnswer, { kind: 'always' }>): void;
}

export interface GateInput {
  callId: string;
  declaration: ToolDeclaration;
  args: Record<string, unknown>;
  argsHash: string;
  policy?: PolicyPort;
  risk: { level: RiskLevel; reason: string };
  /** Extra reason to ask (e.g. a doom loop), whatever policy and risk say. */
  forceAsk?: string;
  approve?: ApprovalHandler;
  memory: ApprovalMemory;
  /** An out-of-band approval already verified for exactly this call. */
  preApproved?: boolean;
}

export type GateOutcome =
  | { ok: true; verdict?: PolicyVerdict; approval?: ApprovalAnswer['kind'] | 'remembered' | 'token' }
  | { ok: false; verdict?: PolicyVerdict; error: Extract<ToolError, { code: 'policy_denied' | 'approval_denied' | 'approval_required' }>; approval?: 'reject' };

/**
 * Steps 4–5 of the pipeline. The policy decides first (a denied call never bothers the user);
 * a call runs without asking only when the policy allows it, its risk is `safe` and nothing forces a
 * question; otherwise the approval callback is asked (once / always / reject). Without a callback a
 * call that needs approval is refused, never run.
 */
export function passSafetyGate(input: GateInput): GateOutcome | Promise<GateOutcome> {
  const verdict = input.policy?.decide({ tool: input.declaration.name, args: input.args, declaration: input.declaration });
  if (verdict?.effect === 'deny') {
    return { ok: false, verdict, error: { code: 'policy_denied', ...(verdict.rule ? { rule: verdict.rule.text } : {}), ...(verdict.rule?.reason ? { reason: verdict.rule.reason } : {}) } };
  }
  const reasons: string[] = [];
  if (verdict?.effect === 'ask') reasons.push(`policy rule ${verdict.rule?.text ?? '(default)'} asks for approval`);
  if (input.risk.level === 'risky') reasons.push(input.risk.reason);
  if (input.forceAsk) reasons.push(input.forceAsk);
  if (reasons.length === 0) return { ok: true, ...(verdict ? { verdict } : {}) };
  if (input.preApproved) return { ok: true, ...(verdict ? { verdict } : {}), approval: 'token' };

  const request: ApprovalRequest = {
    callId: input.callId, tool: input.declaration.name, args: input.args, argsHash: input.argsHash,
    reason: reasons.join('; '), declaration: input.declaration,
  };
  if (!input.forceAsk && input.memory.lookup(request)) return { ok: true, ...(verdict ? { verdict } : {}), approval: 'remembered' };
  if (!input.approve) return { ok: false, ...(verdict ? { verdict } : {}), error: { code: 'approval_required', reason: request.reason } };
  return askForApproval(input, request, verdict);
}

async function askForApproval(input: GateInput, request: ApprovalRequest, verdict: PolicyVerdict | undefined): Promise<GateOutcome> {
  const answer = await input.approve!(request);
  if (answer.kind === 'reject') {
    return { ok: false, ...(verdict ? { verdict } : {}), approval: 'reject', error: { code: 'approval_denied', reason: request.reason, ...(answer.message ? { message: answer.message } : {}) } };
  }
  if (answer.kind === 'always') input.memory.remember(request, answer);
  return { ok: true, ...(verdict ? { verdict } : {}), approval: answer.kind };
}
