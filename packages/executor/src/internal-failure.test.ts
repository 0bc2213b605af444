import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { PipelineStage } from './tool-error.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';
import { testProof } from './test-support/policy-proof.js';
import { HOSTILE_THROWS, trapEverything } from './test-support/hostile.js';

const enoent = HOSTILE_THROWS['a raw ENOENT']!;
const fail = (make: () => unknown) => () => {
  throw make();
};

function setup(options: Partial<ExecutorOptions>, tier: 'read-only' | 'side-effecting' = 'side-effecting') {
  let ran = 0;
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async () => {
        ran++;
        return 'done';
      },
      declaration('file_write', { path: { type: 'string' } }, { metadata: { tier, capabilities: ['fs.write'] } }),
    ),
  );
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({ registry, audit, ...options });
  return { executor, audit, ran: () => ran };
}

describe('internal failures around the tool', () => {
  it.for<[string, Partial<ExecutorOptions>, PipelineStage, string | undefined]>([
    // A symlink flipped during the call makes the workspace's resolve throw from the risk hook.
    ['a risk hook throwing a raw ENOENT', { riskLevel: { file_write: fail(enoent) } }, 'risk', 'ENOENT'],
    ['a custom risk assessment throwing', { assessRisk: fail(() => new TypeError('bad')) }, 'risk', undefined],
    ['a policy throwing', { policy: { decide: fail(() => trapEverything('policy')) } }, 'policy', undefined],
    ['a policy answering no verdict', { policy: { decide: () => ({ effect: 'sideways', proof: {} }) as never } }, 'policy', undefined],
    ['a policy answering nothing', { policy: { decide: () => null as never } }, 'policy', undefined],
    ['an approver throwing', { riskMode: 'autorun_none', approve: fail(() => 'no UI') as never }, 'approval', undefined],
    ['an approver rejecting', { riskMode: 'autorun_none', approve: () => Promise.reject(new Error('socket closed')) }, 'approval', undefined],
    ['an approver answering nonsense', { riskMode: 'autorun_none', approve: async () => ({ kind: 'yes please' }) as never }, 'approval', undefined],
    ['an approval memory throwing', { riskMode: 'autorun_none', approvals: { lookup: fail(() => 'memory'), remember: () => {} } }, 'approval', undefined],
    ['a capability check throwing', { capabilities: ['fs.*'], checkCapabilities: fail(() => 'caps') as never }, 'capabilities', undefined],
  ])('reports %s as internal_error at its stage, audited, with the tool not run', async ([, options, stage, errorCode]) => {
    const { executor, audit, ran } = setup(options);
    const result = await executor.executeToolCall({ id: 'c1', name: 'file_write', arguments: '{"path":"a.txt"}' });
    expect(failed(result).error).toMatchObject({ code: 'internal_error', stage, ran: false, ...(errorCode ? { errorCode } : {}) });
    expect(result.content).toContain('failed inside the executor');
    expect(result.content).toContain("'file_write' was not run");
    expect(ran()).toBe(0);
    expect(audit.records.map((r) => r.type)).toContain('ToolCallRequested');
    expect(audit.records.at(-1)).toMatchObject({ type: 'ToolCallRejected', code: 'internal_error', stage });
  });

  it('words an approver answer JSON cannot show, never as [object Object]', async () => {
    const { executor } = setup({ riskMode: 'autorun_none', approve: async () => ({ toJSON: () => undefined }) as never });
    const result = await executor.executeToolCall({ id: 'c1', name: 'file_write', arguments: '{"path":"a.txt"}' });
    expect(failed(result).error).toMatchObject({
      code: 'internal_error',
      stage: 'approval',
      message: 'the approval handler answered an object JSON cannot show, which is not an approval',
    });
  });

  it('lets a policy denial stand without assessing the risk that would throw', async () => {
    const { executor } = setup({ riskLevel: { file_write: fail(enoent) }, policy: { decide: () => ({ effect: 'deny', proof: testProof('deny') }) } });
    const result = await executor.executeToolCall({ id: 'c1', name: 'file_write', arguments: '{"path":"a.txt"}' });
    expect(failed(result).error).toEqual({ code: 'policy_denied' });
  });

  it('fails a side-effecting call closed when the sink throws instead of rejecting', async () => {
    const { executor, ran } = setup({ audit: { append: fail(() => 'disk full') as never } });
    const result = await executor.executeToolCall({ id: 'c1', name: 'file_write', arguments: '{"path":"a.txt"}' });
    expect(failed(result).error).toEqual({ code: 'audit_failed', message: 'disk full' });
    expect(ran()).toBe(0);
  });

  it('still answers a read when the sink throws on every record', async () => {
    const { executor } = setup({ audit: { append: fail(() => 'x') as never, record: fail(() => 'y') } }, 'read-only');
    expect((await executor.executeToolCall({ id: 'c1', name: 'file_write', arguments: '{"path":"a.txt"}' })).status).toBe('completed');
  });

  it('refuses hook arguments JSON cannot hold, or beyond a safe integer, as hook_blocked', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 'ok', declaration('t', { n: { type: 'integer' }, x: {} }, { required: [] })));
    for (const args of [{ x: Number.NaN }, { x: 10n }, { n: 1e300 }, { n: Number.POSITIVE_INFINITY }]) {
      const executor = new ToolExecutor({ registry, hooks: [{ name: 'rewrite', beforeCall: () => ({ args }) }] });
      const result = await executor.executeToolCall({ id: 'c', name: 't', arguments: '{}' });
      expect(failed(result).error).toMatchObject({ code: 'hook_blocked', hook: 'rewrite', reason: expect.stringContaining('invalid arguments') });
    }
  });

  it('refuses an integer beyond 2^53 − 1 written as a float, and Infinity, at validation', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 'ok', declaration('t', { n: { type: 'integer' } })));
    const executor = new ToolExecutor({ registry });
    const result = await executor.executeToolCall({ id: 'c', name: 't', arguments: '{"n":1e300}' });
    expect(result).toMatchObject({ error: { code: 'invalid_arguments', issues: [{ path: '$.n', kind: 'constraint', keyword: 'x-safe-integer' }] } });
    expect(result.content).toContain("'n' must be a safe integer");
    const overflow = await executor.executeToolCall({ id: 'c', name: 't', arguments: '{"n":1e400}' });
    expect(overflow).toMatchObject({ error: { code: 'invalid_arguments', issues: [{ path: '$.n', kind: 'not_finite', received: '1e400' }] } });
    expect(overflow.content).toContain("'n' is 1e400, which is not a finite number");
  });
});
