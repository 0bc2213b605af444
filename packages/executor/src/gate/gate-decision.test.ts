import { describe, expect, it } from 'vitest';
import type { PolicyVerdict, RiskAssessment } from '../ports.js';
import { testProof } from '../test-support/policy-proof.js';
import { decideGate } from './gate-decision.js';

const SAFE: RiskAssessment = { level: 'safe', reason: 'auto-run' };
const PRIVILEGED: RiskAssessment = { level: 'risky', reason: "'shell_exec' is privileged and always needs approval" };
const GIT_CONFIG: RiskAssessment = { level: 'risky', reason: 'it touches the protected path .git/config', protectedPaths: ['.git/config'] };
const OUTSIDE = 'it runs "npm install" outside the kernel sandbox';
const ESCALATION: RiskAssessment = { level: 'risky', reason: OUTSIDE, escalation: OUTSIDE };
const rule = (effect: PolicyVerdict['effect'], text: string, pattern?: string): PolicyVerdict => ({
  effect,
  rule: { text, ...(pattern !== undefined ? { pattern } : {}) },
  proof: testProof(effect),
});
const byDefault = (effect: PolicyVerdict['effect']): PolicyVerdict => ({ effect, proof: testProof(effect) });

describe(decideGate, () => {
  it.for<[string, PolicyVerdict | undefined, RiskAssessment, string, string?]>([
    ['no policy, a safe call', undefined, SAFE, 'allow'],
    ['no policy, a privileged call', undefined, PRIVILEGED, 'ask'],
    ['a deny rule', rule('deny', 'shell_exec'), PRIVILEGED, 'deny'],
    ['the default deny', byDefault('deny'), SAFE, 'deny'],
    ['an ask rule on a safe call', rule('ask', 'file_write'), SAFE, 'ask'],
    ['an allow rule on a privileged call', rule('allow', 'shell_exec'), PRIVILEGED, 'allow', 'policy-rule'],
    ['the default allow on a privileged call', byDefault('allow'), PRIVILEGED, 'ask'],
    ['a blanket allow rule on a protected path', rule('allow', 'file_write'), GIT_CONFIG, 'ask'],
    ['an allow rule naming the protected path', rule('allow', 'file_write(.git/*)', '.git/*'), GIT_CONFIG, 'allow', 'policy-rule'],
    ['a "safe" risk that still reports a protected path', undefined, { level: 'safe', reason: '', protectedPaths: ['.env'] }, 'ask'],
    ['a risk level that is neither safe nor risky', undefined, { level: 'unknown' as never, reason: '' }, 'ask'],
  ])('%s: %s', ([, verdict, risk, decision, by]) => {
    const gate = decideGate({ verdict, risk });
    expect(gate.decision).toBe(decision);
    if (by) expect(gate).toMatchObject({ by });
  });

  it('lists only the protected paths the allow rule does not name', () => {
    const gate = decideGate({
      verdict: rule('allow', 'shell_exec(cp * .git/config)', 'cp * .git/config'),
      risk: { level: 'risky', reason: '', protectedPaths: ['.git/config', '.env'] },
    });
    expect(gate).toMatchObject({
      decision: 'ask',
      protectedPaths: ['.env'],
      reason: 'it touches the protected path .env, which allow rule shell_exec(cp * .git/config) does not name',
    });
  });

  it.for<[string, PolicyVerdict | undefined, string]>([
    ['no policy', undefined, 'ask'],
    ['an allow rule for the tool', rule('allow', 'shell_exec'), 'ask'],
    ['an allow rule whose pattern matches the command', rule('allow', 'shell_exec(npm *)', 'npm *'), 'ask'],
    ['allow *', rule('allow', '*'), 'ask'],
    ['the default allow', byDefault('allow'), 'ask'],
    ['an ask rule', rule('ask', 'shell_exec'), 'ask'],
    ['a deny rule', rule('deny', 'shell_exec'), 'deny'],
    ['the default deny', byDefault('deny'), 'deny'],
  ])('an escalation under %s: %s, naming it', ([, verdict, decision]) => {
    const gate = decideGate({ verdict, risk: ESCALATION });
    expect(gate.decision).toBe(decision);
    if (decision === 'ask') expect(gate).toMatchObject({ escalation: OUTSIDE, protectedPaths: [] });
  });

  it('says an allow rule does not cover an escalation, and that only a person can', () => {
    expect(decideGate({ verdict: rule('allow', '*'), risk: ESCALATION })).toMatchObject({
      decision: 'ask',
      reason: `${OUTSIDE} — only a person can approve that, not allow rule *`,
    });
  });

  it('keeps an escalation that also touches a protected path the rule names', () => {
    const gate = decideGate({
      verdict: rule('allow', 'shell_exec(cp * .git/config)', 'cp * .git/config'),
      risk: { ...ESCALATION, protectedPaths: ['.git/config'] },
    });
    expect(gate).toMatchObject({ decision: 'ask', protectedPaths: [], escalation: OUTSIDE });
  });

  it.for<[string, unknown]>([
    ['true', true],
    ['an object', { why: 'x' }],
    ['a number', 1],
  ])('counts an escalation given as %s (a host assessor) as one, worded generically', ([, escalation]) => {
    const gate = decideGate({ verdict: rule('allow', '*'), risk: { level: 'safe', reason: 'auto-run', escalation: escalation as string } });
    expect(gate).toMatchObject({ decision: 'ask', escalation: 'it asks to run outside the sandbox' });
  });

  it('asks when a loop forces it, whatever the rules say', () => {
    expect(decideGate({ verdict: rule('allow', 'file_read'), risk: SAFE, forceAsk: 'the same call returned the same result 3 times in a row' }).decision).toBe(
      'ask',
    );
  });
});
