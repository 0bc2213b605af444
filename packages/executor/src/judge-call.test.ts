import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { CallContext, ExecutorOptions } from './executor-options.js';
import { JudgedCalls } from './gate/judged-calls.js';
import type { JudgedCall } from './judged-call.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { loadPolicy } from './policy/policy.js';
import type { ApprovalRequest, PolicyPort } from './ports.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { ToolExecutor } from './tool-executor.js';

// A call judged ahead of its run (`judgeCall`, what the AI SDK adapter's `toolApproval` shows) is not judged again
// when the run is handed the judgement; any run not handed one that fits is judged by the pipeline as ever.

const POLICY = loadPolicy({ default: 'deny', rules: [{ allow: 'note_read' }, { ask: 'note_write' }, { deny: 'note_write(secret*)' }] });

function setup(options: Partial<ExecutorOptions> = {}) {
  const ran: string[] = [];
  const judged: string[] = [];
  const registry = new ToolRegistry();
  registry.register(defineTool(async (name: string) => (ran.push(`read ${name}`), 'text'), declaration('note_read', { name: { type: 'string' } })));
  registry.register(
    defineTool(
      async (name: string) => (ran.push(`write ${name}`), 'written'),
      declaration('note_write', { name: { type: 'string' } }, { metadata: { tier: 'side-effecting' } }),
    ),
  );
  // Counts every judgement: the policy decides once each time the gate judges a call.
  const policy: PolicyPort = { decide: (input) => (judged.push(`${input.tool}:${String(input.args.name)}`), POLICY.decide(input)) };
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({ registry, audit, policy, ...options });
  const run = (name: string, args: Record<string, unknown>, context: CallContext = {}, id = 'c1') =>
    executor.executeToolCall({ id, name, arguments: args }, context);
  const decision = (id = 'c1') => audit.records.find((r) => r.type === 'PolicyDecision' && r.callId === id);
  return { executor, run, ran, judged, decision };
}

describe('ToolExecutor.judgeCall', () => {
  it('judges an allowed call once: the run takes the judgement and runs the tool', async () => {
    const { executor, run, ran, judged } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_read', arguments: { name: 'a' } });
    expect(judgement).toMatchObject({ callId: 'c1', tool: 'note_read', decision: 'allow', argsHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const result = await run('note_read', { name: 'a' }, { judged: judgement });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['read a']);
    expect(judged).toEqual(['note_read:a']);
  });

  it('refuses a denied call from the judgement, without running it or judging again', async () => {
    const { executor, run, ran, judged, decision } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'secret.txt' } });
    expect(judgement.decision).toBe('deny');
    const result = await run('note_write', { name: 'secret.txt' }, { judged: judgement });
    expect(result).toMatchObject({ status: 'error', error: { code: 'policy_denied', rule: 'note_write(secret*)' } });
    expect(ran).toEqual([]);
    expect(judged).toEqual(['note_write:secret.txt']);
    expect(decision()).toMatchObject({ effect: 'deny', rule: 'note_write(secret*)' });
  });

  it("runs a judged 'ask' approved in the host's flow (preApproved), judged once", async () => {
    const { executor, run, ran, judged, decision } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } });
    expect(judgement.decision).toBe('ask');
    const result = await run('note_write', { name: 'todo.txt' }, { judged: judgement, preApproved: () => true });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['write todo.txt']);
    expect(judged).toEqual(['note_write:todo.txt']);
    expect(decision()).toMatchObject({ effect: 'ask', approval: 'token' });
  });

  it("sends a judged 'ask' nobody approved to the approver, and refuses it without one", async () => {
    const asked: ApprovalRequest[] = [];
    const withApprover = setup({ approve: async (request) => (asked.push(request), { kind: 'reject' }) });
    const first = withApprover.executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } });
    expect(await withApprover.run('note_write', { name: 'todo.txt' }, { judged: first })).toMatchObject({ error: { code: 'approval_denied' } });
    expect(asked).toMatchObject([{ callId: 'c1', tool: 'note_write', argsHash: first.argsHash }]);
    expect(withApprover.judged).toHaveLength(1);

    const alone = setup();
    const second = alone.executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } });
    expect(await alone.run('note_write', { name: 'todo.txt' }, { judged: second })).toMatchObject({ error: { code: 'approval_required' } });
    expect(alone.ran).toEqual([]);
  });

  it.for<[string, (executor: ToolExecutor, judgement: JudgedCall) => JudgedCall | undefined, string]>([
    ['another call id', (_, j) => j, 'c2'],
    ['a look-alike object', (_, j) => ({ ...j, decision: 'allow' }), 'c1'],
    ["another executor's judgement", () => setup().executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } }), 'c1'],
  ])('judges the call again, fully gated, when handed %s', async ([, handed, id]) => {
    const { executor, run, ran, judged } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } });
    const result = await run('note_write', { name: 'todo.txt' }, { judged: handed(executor, judgement)! }, id);
    expect(result).toMatchObject({ error: { code: 'approval_required' } });
    expect(ran).toEqual([]);
    expect(judged).toHaveLength(2);
  });

  it('does not carry a judgement to other arguments: an allowed read judged, a denied write run', async () => {
    const { executor, run, ran, judged } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_write', arguments: { name: 'todo.txt' } });
    const result = await run('note_write', { name: 'secret.txt' }, { judged: judgement, preApproved: () => true });
    expect(result).toMatchObject({ error: { code: 'policy_denied' } });
    expect(ran).toEqual([]);
    expect(judged).toEqual(['note_write:todo.txt', 'note_write:secret.txt']);
  });

  it.for([
    ['another session', { sessionId: 's2' }],
    ['another actor', { actorId: 'mallory' }],
    ['another workspace', { workspace: '/elsewhere' }],
    ['other capabilities', { capabilities: ['net.connect'] }],
    ['other workspace rules', { workspaceRules: {} }],
  ] as const)('does not carry a judgement to a run in %s: the run judges the call itself', async ([, other]) => {
    const { executor, run, ran, judged } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_read', arguments: { name: 'a' } }, { sessionId: 's1' });
    await run('note_read', { name: 'a' }, { sessionId: 's1', ...other, judged: judgement } as CallContext);
    expect(ran).toEqual(['read a']);
    expect(judged).toEqual(['note_read:a', 'note_read:a']);
  });

  it('carries a judgement to a run in the same context', async () => {
    const { executor, run, judged } = setup();
    const context: CallContext = { sessionId: 's1', actorId: 'ann', capabilities: ['fs.read'] };
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_read', arguments: { name: 'a' } }, context);
    await run('note_read', { name: 'a' }, { ...context, judged: judgement });
    expect(judged).toEqual(['note_read:a']);
  });

  it('carries a judgement to one run only', async () => {
    const { executor, run, ran, judged } = setup();
    const judgement = executor.judgeCall({ id: 'c1', name: 'note_read', arguments: { name: 'a' } });
    await run('note_read', { name: 'a' }, { judged: judgement });
    await run('note_read', { name: 'a' }, { judged: judgement });
    expect(ran).toEqual(['read a', 'read a']);
    expect(judged).toEqual(['note_read:a', 'note_read:a']);
  });

  it('does not carry an allow to a call the repeated-call guard makes ask', async () => {
    const { executor, run, ran, judged } = setup({ doomLoop: { threshold: 2, action: 'ask' } });
    await run('note_read', { name: 'a' }, {}, 'c1');
    await run('note_read', { name: 'a' }, {}, 'c2');
    const judgement = executor.judgeCall({ id: 'c3', name: 'note_read', arguments: { name: 'a' } });
    expect(judgement.decision).toBe('allow');
    expect(await run('note_read', { name: 'a' }, { judged: judgement }, 'c3')).toMatchObject({ error: { code: 'approval_required' } });
    expect(ran).toEqual(['read a', 'read a']);
    expect(judged).toHaveLength(4);
  });

  it('answers deny, and keeps nothing, when the judgement throws', async () => {
    const throwing = setup({
      policy: {
        decide: () => {
          throw new Error('the policy file is gone');
        },
      },
    });
    const judgement = throwing.executor.judgeCall({ id: 'c1', name: 'note_read', arguments: { name: 'a' } });
    expect(judgement).toMatchObject({ decision: 'deny', reason: expect.stringContaining('the policy file is gone') });
    expect(await throwing.run('note_read', { name: 'a' }, { judged: judgement })).toMatchObject({ error: { code: 'internal_error', stage: 'policy' } });
  });
});

describe(JudgedCalls, () => {
  it('lets a judgement expire', () => {
    let now = 0;
    const calls = new JudgedCalls(1000, () => now);
    const facts = { callId: 'c1', tool: 't', argsHash: 'h' };
    const handle = calls.issue(
      { ...facts, decision: 'allow', reason: 'safe' },
      { judgement: { outcome: { ok: true }, why: 'safe' }, judgedPaths: undefined },
      {},
    );
    now = 1001;
    expect(calls.take(handle, facts, {})).toBeUndefined();
    const fresh = calls.issue(
      { ...facts, decision: 'allow', reason: 'safe' },
      { judgement: { outcome: { ok: true }, why: 'safe' }, judgedPaths: undefined },
      {},
    );
    expect(calls.take(fresh, facts, {})).toMatchObject({ judgement: { outcome: { ok: true } } });
  });
});
