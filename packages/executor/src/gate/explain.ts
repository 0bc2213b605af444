import type { ToolDeclaration } from '@toolwright/schema';
import type { PathResolver, PolicyEffect, RiskAssessment } from '../ports.js';
import { defaultRiskAssessment } from './assess-risk.js';
import { decideGate } from './gate-decision.js';
import type { PolicyProof } from '../ports.js';
import type { Policy } from '../policy/policy.js';
import { subjectOf, toolMatches } from '../policy/rule-pattern.js';

/** How one rule relates to a call, for `toolwright policy explain`. */
export interface RuleExplanation {
  index: number;
  effect: PolicyEffect;
  rule: string;
  reason?: string;
  /** Whether the rule matches the call. */
  matched: boolean;
  /** Why it does or does not match. */
  why: string;
  /** Whether this rule is the one that decided. */
  decisive: boolean;
}

export interface PolicyExplanation {
  tool: string;
  /**
   * What the executor does with the call, before anyone is asked (`decideGate`, the executor's own
   * decision): `allow` runs it, `deny` refuses it, `ask` runs it only once approved.
   */
  decision: PolicyEffect;
  /** The policy's own verdict (the deciding rule's effect, or the default). */
  policyDecision: PolicyEffect;
  /** Why the executor decides so (an explicit allow rule approving a risky call, a protected path, ...). */
  why: string;
  /** Protected paths that only a person confirming them (or an allow rule naming them) can approve. */
  protectedPaths?: readonly string[];
  /** The call asks to run outside the sandbox, and why: only a person confirming that can approve it. */
  escalation?: string;
  proof: PolicyProof;
  rules: RuleExplanation[];
}

/**
 * Every rule's verdict on one call, in evaluation order (deny → ask → allow, file order within
 * each), the one that decides (the default applies when none matches), and what the executor then
 * does with the call given its risk — by the same `decideGate` the executor runs, so they agree.
 * Without `risk`, the default risk assessment of the declaration applies (risk mode autorun_no_public);
 * pass the executor's own (`ToolExecutor.explainCall` does) when it has risk hooks, and its
 * `resolvePath` (the tool host's spelling of path arguments) when it has one.
 */
export function explainDecision(
  policy: Policy,
  tool: string,
  args: Record<string, unknown>,
  declaration?: ToolDeclaration,
  risk?: RiskAssessment,
  resolvePath?: PathResolver,
): PolicyExplanation {
  const verdict = policy.decide({ tool, args, ...(declaration ? { declaration } : {}), ...(resolvePath ? { resolvePath } : {}) });
  const assessed =
    risk ?? (declaration ? defaultRiskAssessment({ declaration, args, mode: 'autorun_no_public', context: {} }) : { level: 'safe', reason: 'auto-run' });
  const gate = decideGate({ verdict, risk: assessed });
  const order: PolicyEffect[] = ['deny', 'ask', 'allow'];
  const rules = [...policy.rules]
    .sort((a, b) => order.indexOf(a.effect) - order.indexOf(b.effect) || a.index - b.index)
    .map((rule): RuleExplanation => {
      const matched = policy.matches(rule, tool, args, declaration, resolvePath);
      let why: string;
      if (!toolMatches(rule, tool)) why = `the tool pattern "${rule.tool}" does not match "${tool}"`;
      else if (rule.pattern === undefined) why = 'matches every call of the tool';
      else {
        const subject = subjectOf(rule, declaration, args);
        if (!subject) why = rule.argument ? `the call has no string argument "${rule.argument}"` : 'the tool has no string subject argument to match';
        else
          why = `${subject.name} = ${JSON.stringify(subject.value)} ${matched ? 'matches' : 'does not match'} "${rule.pattern}"${resolvedAs(subject, args, resolvePath)}`;
      }
      return {
        index: rule.index,
        effect: rule.effect,
        rule: rule.text,
        ...(rule.reason ? { reason: rule.reason } : {}),
        matched,
        why,
        decisive: verdict.proof.ruleIndex === rule.index,
      };
    });
  const protectedPaths = gate.decision === 'ask' && gate.protectedPaths.length > 0 ? { protectedPaths: gate.protectedPaths } : {};
  const escalation = gate.decision === 'ask' && gate.escalation !== undefined ? { escalation: gate.escalation } : {};
  return { tool, decision: gate.decision, policyDecision: verdict.effect, why: gate.why, ...protectedPaths, ...escalation, proof: verdict.proof, rules };
}

/** ` (resolved as ".env")` when the tool host spells a path argument otherwise than the call. */
function resolvedAs(subject: { name: string; value: string }, args: Record<string, unknown>, resolvePath: PathResolver | undefined): string {
  const spellings = resolvePath?.(subject.name, subject.value, args);
  if (!Array.isArray(spellings) || spellings.length === 0 || (spellings.length === 1 && spellings[0] === subject.value)) return '';
  const shown = spellings
    .slice(0, 3)
    .map((s) => JSON.stringify(s))
    .join(' and ');
  return ` (resolved as ${shown}${spellings.length > 3 ? ` and ${spellings.length - 3} more paths` : ''})`;
}

/** The explanation as text for a terminal. */
export function formatExplanation(explanation: PolicyExplanation): string {
  const lines = [`${explanation.tool}: ${explanation.decision.toUpperCase()}`];
  const decisive = explanation.rules.find((r) => r.decisive);
  lines.push(
    decisive
      ? `  decided by rule ${decisive.index + 1}: ${decisive.effect} ${decisive.rule}${decisive.reason ? ` — ${decisive.reason}` : ''}`
      : `  no rule matches; the default (${explanation.policyDecision}) applies`,
  );
  lines.push(
    `  the executor ${explanation.decision === 'allow' ? 'runs it' : explanation.decision === 'deny' ? 'refuses it' : 'runs it only once approved'}: ${explanation.why}`,
  );
  if (explanation.escalation !== undefined)
    lines.push(
      `  run outside the sandbox: ${explanation.escalation} — only a person confirming it approves that (no allow rule, remembered approval or --yes does)`,
    );
  if (explanation.rules.length > 0) lines.push('  rules in evaluation order (deny → ask → allow):');
  for (const rule of explanation.rules) {
    const mark = rule.decisive ? '→' : rule.matched ? '✓' : '·';
    lines.push(`   ${mark} ${String(rule.index + 1).padStart(2)} ${rule.effect.padEnd(5)} ${rule.rule}  (${rule.why})`);
  }
  lines.push(`  policy sha-256 ${explanation.proof.policyHash}`);
  return lines.join('\n');
}
