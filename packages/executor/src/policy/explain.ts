import type { ToolDeclaration } from '@toolwright/schema';
import type { PolicyEffect } from '../ports.js';
import type { Policy, PolicyProof } from './policy.js';
import { subjectOf, toolMatches } from './rule-pattern.js';

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
  decision: PolicyEffect;
  proof: PolicyProof;
  rules: RuleExplanation[];
}

/**
 * Every rule's verdict on one call, in evaluation order (deny → ask → allow, file order within
 * each), and the one that decides; the default applies when none matches.
 */
export function explainDecision(policy: Policy, tool: string, args: Record<string, unknown>, declaration?: ToolDeclaration): PolicyExplanation {
  const verdict = policy.decide({ tool, args, ...(declaration ? { declaration } : {}) });
  const order: PolicyEffect[] = ['deny', 'ask', 'allow'];
  const rules = [...policy.rules]
    .sort((a, b) => order.indexOf(a.effect) - order.indexOf(b.effect) || a.index - b.index)
    .map((rule): RuleExplanation => {
      const matched = policy.matches(rule, tool, args, declaration);
      let why: string;
      if (!toolMatches(rule, tool)) why = `the tool pattern "${rule.tool}" does not match "${tool}"`;
      else if (rule.pattern === undefined) why = 'matches every call of the tool';
      else {
        const subject = subjectOf(rule, declaration, args);
        if (!subject) why = rule.argument ? `the call has no string argument "${rule.argument}"` : 'the tool has no string subject argument to match';
        else why = `${subject.name} = ${JSON.stringify(subject.value)} ${matched ? 'matches' : 'does not match'} "${rule.pattern}"`;
      }
      return {
        index: rule.index, effect: rule.effect, rule: rule.text, ...(rule.reason ? { reason: rule.reason } : {}),
        matched, why, decisive: verdict.proof.ruleIndex === rule.index,
      };
    });
  return { tool, decision: verdict.effect, proof: verdict.proof, rules };
}

/** The explanation as text for a terminal. */
export function formatExplanation(explanation: PolicyExplanation): string {
  const lines = [`${explanation.tool}: ${explanation.decision.toUpperCase()}`];
  const decisive = explanation.rules.find((r) => r.decisive);
  lines.push(decisive
    ? `  decided by rule ${decisive.index + 1}: ${decisive.effect} ${decisive.rule}${decisive.reason ? ` — ${decisive.reason}` : ''}`
    : `  no rule matches; the default (${explanation.decision}) applies`);
  if (explanation.rules.length > 0) lines.push('  rules in evaluation order (deny → ask → allow):');
  for (const rule of explanation.rules) {
    const mark = rule.decisive ? '→' : rule.matched ? '✓' : '·';
    lines.push(`   ${mark} ${String(rule.index + 1).padStart(2)} ${rule.effect.padEnd(5)} ${rule.rule}  (${rule.why})`);
  }
  lines.push(`  policy sha-256 ${explanation.proof.policyHash}`);
  return lines.join('\n');
}
