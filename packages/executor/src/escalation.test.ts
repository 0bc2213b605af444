import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext } from '@toolwright/tool';
import { ApprovalTokens } from './approval-token.js';
import type { ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { ApprovalAnswer, ApprovalRequest } from './ports.js';
import { formatExplanation } from './gate/explain.js';
import { loadPolicy } from './policy/policy.js';
import { defaultRiskAssessment } from './gate/assess-risk.js';
import { canonicalJson, sha256Hex } from './output/normalize-output.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';

// An escalation is a call that asks to run outside the sandbox (core-tools: shell_exec with
// `escalate: true`). Only a person confirming it approves it: no allow rule, remembered `always`,
// approval token or blanket answer does; a deny rule still refuses it.

const OUTSIDE = 'it runs "npm install" outside the kernel sandbox';
/** What core-tools' risk hook reports for `shell_exec`. */
const reportEscalation = (args: Record<string, unknown>) =>
  args.escalate === true ? { level: 'risky' as const, reason: OUTSIDE, escalation: OUTSIDE } : ('safe' as const);

const CONFIRMED: ApprovalAnswer = { kind: 'once', confirmEscalation: true };
const ESCALATED = { command: 'npm install', escalate: true };

function setup(options: Partial<ExecutorOptions> = {}, answers: ApprovalAnswer[] | null = [{ kind: 'once' }]) {
  const ran: string[] = [];
  /** What each run's tool context said: did a person confirm this call's escalation? */
  const confirmed: boolean[] = [];
  const asked: ApprovalRequest[] = [];
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async (command: string, escalate = false) => {
        ran.push(`${command}${escalate ? ' (outside)' : ''}`);
        confirmed.push(getToolContext()?.escalationConfirmed === true);
        return 'ran';
      },
      declaration('shell_exec', { command: { type: 'string' }, escalate: { type: 'boolean' } }, { required: ['command'], metadata: { tier: 'privileged' } }),
    ),
  );
  const audit = new MemoryAuditSink();
  const approve = async (request: ApprovalRequest) => (asked.push(request), answers!.length > 1 ? answers!.shift()! : answers![0]!);
  const executor = new ToolExecutor({ registry, audit, riskLevel: { shell_exec: reportEscalation }, ...(answers ? { approve } : {}), ...options });
  const run = (args: Record<string, unknown>, id = 'c', context: Parameters<ToolExecutor['executeToolCall']>[1] = {}) =>
    executor.executeToolCall({ id, name: 'shell_exec', arguments: JSON.stringify(args) }, context);
  const decision = () => audit.records.filter((r) => r.type === 'PolicyDecision').at(-1);
  return { executor, audit, run, ran, confirmed, asked, decision };
}

describe('an escalation', () => {
  it.for<[string, ApprovalAnswer]>([
    ['once (as --yes answers)', { kind: 'once' }],
    ['always', { kind: 'always' }],
    ['a pattern always', { kind: 'always', pattern: 'shell_exec(**)' }],
    ['once confirming protected paths only', { kind: 'once', confirmProtected: true }],
  ])('is refused under a blanket answer: %s', async ([, answer]) => {
    const { run, ran, asked, decision } = setup({}, [answer]);
    const result = await run(ESCALATED);
    expect(failed(result).error).toEqual({ code: 'escalation_unapproved', escalation: OUTSIDE, approval: 'blanket' });
    expect(result.content).toContain('never lets a call run outside the sandbox');
    expect(ran).toEqual([]);
    expect(asked[0]).toMatchObject({ escalation: OUTSIDE, reason: OUTSIDE });
    expect(decision()).toMatchObject({ approval: 'unconfirmed', escalation: OUTSIDE });
  });

  it("runs once a person confirms it, and the audit records the person's confirmation", async () => {
    const { run, ran, confirmed, decision, audit } = setup({}, [CONFIRMED]);
    expect((await run(ESCALATED)).status).toBe('completed');
    expect(ran).toEqual(['npm install (outside)']);
    expect(confirmed).toEqual([true]);
    expect(decision()).toMatchObject({ type: 'PolicyDecision', approval: 'escalation', escalation: OUTSIDE });
    expect(audit.records.find((r) => r.type === 'ToolCallRequested')).toMatchObject({ args: ESCALATED });
  });

  it("tells the tool a person confirmed it (escalationConfirmed) only on that call's confirmation", async () => {
    const { run, confirmed } = setup({}, [CONFIRMED, { kind: 'once' }, CONFIRMED]);
    expect((await run(ESCALATED, 'a')).status).toBe('completed');
    expect((await run({ command: 'npm test' }, 'b')).status).toBe('completed');
    // Neither the caller's context nor an answer confirming an escalation nobody asked about sets it.
    expect((await run({ command: 'npm ci' }, 'c', { escalationConfirmed: true } as never)).status).toBe('completed');
    expect(confirmed).toEqual([true, false, false]);
  });

  it.for<[string, Partial<ExecutorOptions>, ApprovalAnswer[] | null]>([
    ['an approver confirming everything', {}, [CONFIRMED]],
    ['an allow rule', { policy: loadPolicy({ rules: [{ allow: 'shell_exec' }] }) }, null],
  ])('without the risk hook that names it is not confirmed to the tool, under %s', async ([, options, answers]) => {
    const { run, ran, confirmed, asked } = setup({ riskLevel: {}, ...options }, answers);
    expect((await run(ESCALATED)).status).toBe('completed');
    expect(ran).toEqual(['npm install (outside)']);
    expect(confirmed).toEqual([false]);
    expect(asked.every((request) => request.escalation === undefined)).toBe(true);
  });

  it.for(['shell_exec', 'shell_exec(npm *)', '*'])('is not covered by the allow rule %s: a person is still asked', async (allow) => {
    const policy = loadPolicy({ rules: [{ allow }] });
    const nobody = setup({ policy }, null);
    const refused = await nobody.run(ESCALATED);
    expect(failed(refused).error).toEqual({ code: 'escalation_unapproved', escalation: OUTSIDE, approval: 'none' });
    expect(refused.content).toContain('no one could be asked to confirm that');
    expect((await nobody.run({ command: 'npm install' })).status).toBe('completed');
    const person = setup({ policy }, [CONFIRMED]);
    expect((await person.run(ESCALATED)).status).toBe('completed');
    expect(person.asked).toHaveLength(1);
    expect(person.asked[0]!.reason).toBe(`${OUTSIDE} — only a person can approve that, not allow rule ${allow}`);
  });

  it('is refused by a deny rule without asking anyone', async () => {
    const { run, asked, ran } = setup({ policy: loadPolicy({ rules: [{ deny: 'shell_exec(npm install)' }] }) }, [CONFIRMED]);
    expect(failed(await run(ESCALATED)).error.code).toBe('policy_denied');
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('is never answered from a remembered always, and confirming it with always remembers nothing', async () => {
    const { run, ran, asked } = setup({}, [
      { kind: 'always', pattern: 'shell_exec(**)' },
      { kind: 'always', confirmEscalation: true },
      { kind: 'reject', message: 'not again' },
    ]);
    expect((await run({ command: 'npm install' }, 'a')).status).toBe('completed');
    expect((await run({ command: 'npm test' }, 'b')).status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect((await run(ESCALATED, 'c')).status).toBe('completed');
    expect(asked).toHaveLength(2);
    const again = await run(ESCALATED, 'd');
    expect(failed(again).error).toMatchObject({ code: 'approval_denied', message: 'not again' });
    expect(asked).toHaveLength(3);
    expect(ran).toEqual(['npm install', 'npm test', 'npm install (outside)']);
  });

  it('an escalation confirmed with always does not approve the same call inside the sandbox either', async () => {
    const { run, asked } = setup({}, [{ kind: 'always', confirmEscalation: true }, { kind: 'reject' }]);
    expect((await run(ESCALATED, 'a')).status).toBe('completed');
    expect(failed(await run({ command: 'npm install' }, 'b')).error.code).toBe('approval_denied');
    expect(asked).toHaveLength(2);
  });

  it('is not covered by an approval token (nor a host that says it approved)', async () => {
    const tokens = new ApprovalTokens();
    const token = tokens.issue({ tool: 'shell_exec', callId: 'c', argsHash: sha256Hex(canonicalJson(ESCALATED)) });
    const nobody = setup({}, null);
    const withToken = await nobody.run(ESCALATED, 'c', { preApproved: tokens.preApproved(() => token) });
    expect(failed(withToken).error).toMatchObject({ code: 'escalation_unapproved', approval: 'none' });
    expect(failed(await nobody.run(ESCALATED, 'c', { preApproved: () => true })).error.code).toBe('escalation_unapproved');
    const person = setup({}, [CONFIRMED]);
    expect((await person.run(ESCALATED, 'c', { preApproved: () => true })).status).toBe('completed');
    expect(person.asked).toHaveLength(1);
  });

  it('says nobody could confirm it when the approver cannot ask', async () => {
    const { run } = setup({}, [{ kind: 'unavailable', message: 'no terminal' }]);
    expect(failed(await run(ESCALATED)).error).toEqual({ code: 'escalation_unapproved', escalation: OUTSIDE, approval: 'none' });
  });

  it("reports a person's no as a rejection", async () => {
    const { run } = setup({}, [{ kind: 'reject', message: 'not outside' }]);
    expect(failed(await run(ESCALATED)).error).toMatchObject({ code: 'approval_denied', message: 'not outside' });
  });

  it('needs both confirmations when it also touches a protected path', async () => {
    const OUTSIDE_GIT = { level: 'risky' as const, reason: OUTSIDE, escalation: OUTSIDE, protectedPaths: ['.git/config'] };
    for (const [answer, code] of [
      [{ kind: 'once', confirmEscalation: true }, 'protected_path_unapproved'],
      [{ kind: 'once', confirmProtected: true }, 'escalation_unapproved'],
      [{ kind: 'once', confirmEscalation: true, confirmProtected: true }, undefined],
    ] as const) {
      const { run } = setup({ riskLevel: { shell_exec: () => OUTSIDE_GIT } }, [answer]);
      const result = await run(ESCALATED);
      expect(result.status === 'error' ? result.error.code : undefined).toBe(code);
    }
  });

  it('is shown as such by previewGate and explainCall', () => {
    const { executor } = setup({ policy: loadPolicy({ rules: [{ allow: 'shell_exec' }] }) });
    expect(executor.previewGate('shell_exec', ESCALATED)).toEqual({
      decision: 'ask',
      reason: `${OUTSIDE} — only a person can approve that, not allow rule shell_exec`,
      escalation: OUTSIDE,
    });
    const explanation = executor.explainCall('shell_exec', ESCALATED);
    expect(explanation).toMatchObject({ decision: 'ask', policyDecision: 'allow', escalation: OUTSIDE });
    expect(formatExplanation(explanation)).toContain(`run outside the sandbox: ${OUTSIDE} — only a person confirming it approves that`);
    expect(executor.previewGate('shell_exec', { command: 'npm install' })).toMatchObject({ decision: 'allow' });
  });
});

describe(defaultRiskAssessment, () => {
  const shell = declaration('shell_exec', { command: { type: 'string' } }, { metadata: { tier: 'privileged' } });
  const assess = (answer: unknown) =>
    defaultRiskAssessment({ declaration: shell, args: { command: 'x' }, mode: 'autorun_all', context: {}, riskLevel: () => answer as 'safe' });

  it.for<[string, unknown, string | undefined]>([
    ['a worded escalation', { level: 'risky', escalation: OUTSIDE }, OUTSIDE],
    ['an escalation a hook marked safe', { level: 'safe', escalation: OUTSIDE }, OUTSIDE],
    ['escalation: true', { level: 'risky', escalation: true }, 'it asks to run outside the sandbox'],
    ['escalation: false', { level: 'risky', escalation: false }, undefined],
    ['an empty escalation', { level: 'safe', escalation: '' }, undefined],
  ])('reads %s from a risk hook', ([, answer, escalation]) => {
    const risk = assess(answer);
    expect(risk.escalation).toBe(escalation);
    expect(risk.level).toBe('risky');
    if (escalation) expect(risk.reason).toBe(escalation);
  });

  it('words an unworded escalation alike from a risk hook and from a host assessor', async () => {
    const fromHook = setup({ riskLevel: { shell_exec: () => ({ level: 'risky', escalation: true as never }) } }, null);
    const fromAssessor = setup({ assessRisk: () => ({ level: 'risky', reason: 'risky', escalation: true as never }) }, null);
    const [hook, assessor] = [await fromHook.run(ESCALATED), await fromAssessor.run(ESCALATED)];
    expect(failed(hook).error).toEqual({ code: 'escalation_unapproved', escalation: 'it asks to run outside the sandbox', approval: 'none' });
    expect(failed(assessor).error).toEqual(failed(hook).error);
  });

  it('words an escalation that also touches protected paths with both', () => {
    expect(assess({ level: 'risky', escalation: OUTSIDE, protectedPaths: ['.env'] })).toEqual({
      level: 'risky',
      reason: `${OUTSIDE}; it touches the protected path .env`,
      protectedPaths: ['.env'],
      escalation: OUTSIDE,
    });
  });
});
