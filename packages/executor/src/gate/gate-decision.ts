import type { PolicyVerdict, RiskAssessment } from '../ports.js';
import type { ToolError } from '../tool-error.js';
import { ruleNamesProtectedPath } from '../policy/names-protected-path.js';
import { escalationOf } from './escalation-of.js';

export interface GateFacts {
  /** The policy's verdict, when a policy is configured. */
  verdict?: PolicyVerdict | undefined;
  risk: RiskAssessment;
  /** Extra reason to ask (e.g. a doom loop), whatever policy and risk say. */
  forceAsk?: string | undefined;
}

/**
 * What the safety gate decides before anyone is asked: `deny` (the policy refuses), `allow` (runs
 * unasked — `by` says whether the call was safe or an explicit allow rule approved it), or `ask` (runs
 * only once approved; `protectedPaths` lists the protected paths no rule covers, which only a person
 * confirming them can approve; `escalation`, present when the call asks to run outside the sandbox,
 * says why — only a person confirming it can approve that).
 */
export type GateDecision =
  | { decision: 'deny'; error: Extract<ToolError, { code: 'policy_denied' }>; why: string }
  | { decision: 'allow'; by: 'auto-run' | 'policy-rule'; why: string }
  | { decision: 'ask'; reason: string; protectedPaths: readonly string[]; escalation?: string; why: string };

/**
 * The one decision the executor, `previewGate` and `explainDecision` share, so they always agree:
 * 1. a policy `deny` (a rule, or the default) refuses;
 * 2. a policy `ask` (a rule, or the default) asks;
 * 3. an escalation (a call that asks to run outside the sandbox) asks, whatever the allow rules say;
 * 4. an explicit allow **rule** is the operator's approval: it covers a risky call (a privileged tool,
 *    the risk mode, the public scope, a tool's own risk hook) — but a protected path only when the rule
 *    names it (`ruleNamesProtectedPath`); the policy's default `allow` covers nothing risky;
 * 5. otherwise a risky call asks, and a safe one runs; `forceAsk` always asks.
 * A risk that is not exactly `safe`, or that touches a protected path or escalates, counts as risky.
 */
export function decideGate({ verdict, risk, forceAsk }: GateFacts): GateDecision {
  const rule = verdict?.rule;
  if (verdict?.effect === 'deny') {
    return {
      decision: 'deny',
      error: { code: 'policy_denied', ...(rule ? { rule: rule.text } : {}), ...(rule?.reason ? { reason: rule.reason } : {}) },
      why: rule ? `policy rule ${rule.text} denies it` : "the policy's default is deny and no rule allows it",
    };
  }
  const allowRule = verdict?.effect === 'allow' ? rule : undefined;
  const touched: readonly string[] = Array.isArray(risk.protectedPaths) ? risk.protectedPaths : [];
  const escalation = escalationOf(risk.escalation);
  const risky = risk.level !== 'safe' || touched.length > 0 || escalation !== undefined;
  const uncovered = allowRule ? touched.filter((p) => !ruleNamesProtectedPath(allowRule, p)) : touched;
  const reasons: string[] = [];
  if (verdict?.effect === 'ask') reasons.push(rule ? `policy rule ${rule.text} asks for approval` : "the policy's default asks for approval");
  if (risky && !allowRule) reasons.push(risk.reason || escalation || 'the call is risky');
  else if (uncovered.length > 0)
    reasons.push(`it touches the protected path${uncovered.length > 1 ? 's' : ''} ${uncovered.join(', ')}, which allow rule ${allowRule!.text} does not name`);
  if (escalation !== undefined && allowRule) reasons.push(`${escalation} — only a person can approve that, not allow rule ${allowRule.text}`);
  if (forceAsk) reasons.push(forceAsk);
  if (reasons.length > 0) {
    const reason = reasons.join('; ');
    return { decision: 'ask', reason, protectedPaths: uncovered, ...(escalation !== undefined ? { escalation } : {}), why: reason };
  }
  if (risky && allowRule)
    return { decision: 'allow', by: 'policy-rule', why: `allow rule ${allowRule.text} is the operator's approval (${risk.reason || 'the call is risky'})` };
  return rule ? { decision: 'allow', by: 'auto-run', why: `policy rule ${rule.text} allows it and it is safe to run unasked` } : AUTO_RUN;
}

const AUTO_RUN: GateDecision = Object.freeze({ decision: 'allow', by: 'auto-run', why: 'it is safe to run unasked' });
