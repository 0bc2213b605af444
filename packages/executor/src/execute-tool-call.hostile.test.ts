import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import type { ExecutorOptions } from './executor-options.js';
import type { PolicyProof } from './ports.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { ToolCallResult } from './tool-call.js';
import type { ToolErrorCode } from './tool-error.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';
import { HOSTILE_RETURNS, HOSTILE_THROWS, trapEverything } from './test-support/hostile.js';

const CODES: readonly ToolErrorCode[] = [
  'unknown_tool',
  'tool_not_loaded',
  'invalid_json',
  'invalid_arguments',
  'approval_required',
  'approval_denied',
  'policy_denied',
  'protected_path_unapproved',
  'escalation_unapproved',
  'capability_denied',
  'timeout',
  'cancelled',
  'tool_failed',
  'invalid_output',
  'output_too_large',
  'hook_blocked',
  'skipped',
  'doom_loop',
  'audit_failed',
  'interrupted',
  'internal_error',
];

/** A well-formed result: what every call must resolve to, whatever happened. */
function expectResult(result: ToolCallResult): void {
  expect(['completed', 'error']).toContain(result.status);
  expect(typeof result.content).toBe('string');
  expect(typeof result.callId).toBe('string');
  if (result.status === 'error') expect(CODES).toContain(result.error?.code);
}

const thrower = (make: () => unknown) => () => {
  throw make();
};
const parameters = { path: { type: 'string' }, offset: { type: 'integer' }, ratio: { type: 'number' }, any: {} } as const;

/** The tool under test, in each tier, doing one hostile thing. */
function hostileTool(behaviour: () => unknown, tier: 'read-only' | 'side-effecting' | 'privileged') {
  return defineTool(behaviour, declaration('hostile', parameters, { required: [], metadata: { tier, timeoutMs: 30 } }));
}

/** Services around the tool (risk hook, policy, approver, hooks, sink), each well-behaved or hostile. */
const services = fc.record(
  {
    riskLevel: fc.constantFrom<ExecutorOptions['riskLevel'] | undefined>(
      undefined,
      { hostile: thrower(HOSTILE_THROWS['a raw ENOENT']!) },
      { hostile: () => 'maybe' as never },
      { hostile: () => ({ level: 'safe', protectedPaths: ['.git/config'] }) },
      { hostile: () => ({ level: 'safe', escalation: trapEverything('escalation') }) as never },
      { hostile: () => trapEverything('risk') as never },
    ),
    policy: fc.constantFrom<ExecutorOptions['policy'] | undefined>(
      undefined,
      { decide: thrower(HOSTILE_THROWS['a proxy that throws']!) },
      // Deliberately hostile proofs: one missing every field a proof has, one a bigint JSON cannot hold.
      { decide: () => ({ effect: 'allow', rule: { text: 'hostile' }, proof: {} as unknown as PolicyProof }) },
      { decide: () => ({ effect: 'sideways', proof: undefined }) as never },
      { decide: () => ({ effect: 'deny', proof: 10n as unknown as PolicyProof }) },
    ),
    approve: fc.constantFrom<ExecutorOptions['approve'] | undefined>(
      undefined,
      async () => ({ kind: 'once' }),
      async () => ({ kind: 'once', confirmProtected: true }),
      async () => ({ kind: 'always', confirmEscalation: true }),
      async () => ({ kind: 'maybe' }) as never,
      async () => undefined as never,
      thrower(HOSTILE_THROWS['undefined']!) as never,
      () => Promise.reject(trapEverything('approval')),
      (() => ({ kind: 'once' })) as never,
      async () => ({ kind: 'unavailable', message: 'no terminal' }),
    ),
    hooks: fc.constantFrom<ExecutorOptions['hooks'] | undefined>(
      undefined,
      [{ name: 'throws', beforeCall: thrower(HOSTILE_THROWS['an object whose getters throw']!) }],
      [{ name: 'nan', beforeCall: ({ args }) => ({ args: { ...args, ratio: Number.NaN } }) }],
      [{ name: 'cycle', beforeCall: ({ args }) => ({ args: { ...args, any: trapEverything('args') } }) }],
      [{ name: 'odd', beforeCall: () => 'yes' as never, afterCall: () => ({ output: 3n }) }],
      [{ name: 'huge', beforeCall: ({ args }) => ({ args: { ...args, offset: 1e300 } }) }],
    ),
    audit: fc.constantFrom<ExecutorOptions['audit'] | undefined>(
      undefined,
      { append: thrower(HOSTILE_THROWS['a string']!) as never },
      { append: () => Promise.reject(Symbol('disk')) },
      { append: () => undefined as never },
      { append: async () => undefined, record: thrower(HOSTILE_THROWS['null']!) as never },
    ),
    checkCapabilities: fc.constantFrom<ExecutorOptions['checkCapabilities'] | undefined>(undefined, thrower(HOSTILE_THROWS['a number']!) as never),
    riskMode: fc.constantFrom<ExecutorOptions['riskMode']>('autorun_all', 'autorun_no_public', 'autorun_none'),
  },
  { requiredKeys: [] },
);

const behaviours = fc.oneof(
  fc.constantFrom(...Object.values(HOSTILE_RETURNS)),
  fc.constantFrom(...Object.values(HOSTILE_THROWS)).map(thrower),
  fc.constantFrom(...Object.values(HOSTILE_THROWS)).map((make) => async () => {
    throw make();
  }),
);

const argumentTexts = fc.oneof(
  fc.constantFrom(
    '{}',
    '{"path":"a.txt","offset":1e400}',
    '{"offset":9007199254740993}',
    '{"ratio":-1e309}',
    '{"offset":1e300}',
    '{"path":"a","path":"b"}',
    '{"any":{"__proto__":1}}',
    '{"path":"\ud800"}',
    `{"any":${'['.repeat(80)}${']'.repeat(80)}}`,
    '{"offset":-0}',
    'null',
    '',
    '{"path":"public:/x"}',
  ),
  fc
    .record({ path: fc.string(), offset: fc.oneof(fc.integer(), fc.double()), ratio: fc.double(), any: fc.jsonValue() }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc.string(),
);

describe('executeToolCall against hostile tools, arguments and services', () => {
  it('always resolves to a well-formed result and never rejects (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        behaviours,
        fc.constantFrom('read-only', 'side-effecting', 'privileged'),
        services,
        argumentTexts,
        async (behaviour, tier, options, args) => {
          const registry = new ToolRegistry();
          registry.register(hostileTool(behaviour, tier as 'read-only'));
          const executor = new ToolExecutor({ registry, ...options });
          const result = await executor.executeToolCall({ id: 'h1', name: 'hostile', arguments: args });
          expectResult(result);
          const batch = await executor.executeBatch([
            { id: 'b1', name: 'hostile', arguments: args },
            { id: 'b2', name: 'nope', arguments: args },
          ]);
          expect(batch).toHaveLength(2);
          for (const item of batch) expectResult(item);
        },
      ),
      { numRuns: 1_500 },
    );
  }, 120_000);

  it('answers calls a host built badly instead of throwing', async () => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(() => 'ok', 'read-only'));
    const executor = new ToolExecutor({ registry });
    for (const call of [
      null,
      undefined,
      42,
      {},
      { id: 7, name: 'hostile', arguments: '{}' },
      { id: 'x', name: 'hostile', arguments: { path: 'a' } },
      trapEverything('call'),
    ]) {
      expectResult(await executor.executeToolCall(call as never));
    }
    const batch = await executor.executeBatch(
      [null, { id: 'y', name: 'hostile', arguments: '{}' }] as never,
      {},
      { interrupted: thrower(HOSTILE_THROWS['a symbol']!) as never },
    );
    expect(batch.map((r) => r.status)).toEqual(['error', 'error']);
    expect(failed(batch[1]!).error.code).toBe('skipped');
  });
});

describe('host options a caller got wrong', () => {
  it('runs a batch with a concurrency of NaN or 0 instead of waiting forever, and ignores a NaN time limit', async () => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(async () => 'ok', 'read-only'));
    const executor = new ToolExecutor({ registry, doomLoop: false });
    const calls = [
      { id: 'a', name: 'hostile', arguments: '{}' },
      { id: 'b', name: 'hostile', arguments: '{}' },
    ];
    for (const concurrency of [Number.NaN, 0, -3]) {
      expect((await executor.executeBatch(calls, {}, { concurrency })).map((r) => r.status)).toEqual(['completed', 'completed']);
    }
    expect((await executor.executeToolCall(calls[0]!, { timeoutMs: Number.NaN })).status).toBe('completed');
  });
});

describe('tool failures', () => {
  it.for(Object.entries(HOSTILE_THROWS))('turns a tool that throws %s into tool_failed', async ([, make]) => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(thrower(make), 'read-only'));
    const result = await new ToolExecutor({ registry }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' });
    expect(failed(result).error.code).toBe('tool_failed');
    expect(result.content.length).toBeLessThan(2_200);
  });

  it("keeps the tool's own error code in the result and in the audit record", async () => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(thrower(HOSTILE_THROWS['an error with a code']!), 'side-effecting'));
    const audit = new MemoryAuditSink();
    const result = await new ToolExecutor({ registry, audit }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' });
    expect(failed(result).error).toEqual({ code: 'tool_failed', message: 'no such file: a.txt', errorCode: 'not_found' });
    expect(result.content).toBe('Tool execution failed: no such file: a.txt (not_found)');
    expect(audit.records.at(-1)).toMatchObject({ type: 'ToolCallFailed', code: 'tool_failed', errorCode: 'not_found' });
  });

  it('never passes on a code that is not an identifier', async () => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(thrower(HOSTILE_THROWS['an error with a hostile code']!), 'read-only'));
    const result = await new ToolExecutor({ registry }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' });
    expect(failed(result).error).toEqual({ code: 'tool_failed', message: 'x' });
  });

  it.for([
    ['NaN', 'the output is NaN'],
    ['a NaN deep inside', 'the output.rows[0].score is NaN'],
    ['a cycle', 'refers back to itself'],
    ['a bigint', 'the output.size is a bigint'],
    ['a symbol', 'is a symbol'],
    ['a throwing getter', 'getter'],
  ] as const)('refuses a tool returning %s as invalid_output', async ([name, message]) => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(HOSTILE_RETURNS[name]!, 'read-only'));
    const result = await new ToolExecutor({ registry }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' });
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_output', issues: [{ kind: 'not_json' }] } });
    expect(result.content).toContain(message);
  });

  it.for([
    ['a sparse array of length 2^32 - 1', 'the output.a is an array of 4,294,967,295 elements'],
    ['a sparse array of length 1e8', 'the output.a is an array of 100,000,000 elements'],
    ['a 50 MB Buffer', 'the output is binary data of 52,428,800 elements'],
    ['a typed array of 10 million numbers', 'the output.samples is binary data of 10,000,000 elements'],
  ] as const)('answers a tool returning %s with output_too_large, in every tier', async ([name, reason]) => {
    for (const tier of ['read-only', 'side-effecting'] as const) {
      const registry = new ToolRegistry();
      registry.register(defineTool(HOSTILE_RETURNS[name]!, declaration('hostile', {}, { metadata: { tier }, returns: { type: 'object' } })));
      const audit = new MemoryAuditSink();
      const result = await new ToolExecutor({ registry, audit }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' });
      expect(result).toMatchObject({ status: 'error', error: { code: 'output_too_large', reason: expect.stringContaining(reason), maxValues: 1_000_000 } });
      expect(result.content).toMatch(/^Tool execution failed: 'hostile' returned a result too large to handle \(the output.* Ask for less at once/);
      expect(audit.records.at(-1)).toMatchObject({ type: 'ToolCallFailed', code: 'output_too_large' });
    }
  });

  it("reads each property of the output once, checking it against the tool's returns schema too", async () => {
    let reads = 0;
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        () => ({
          get rows() {
            reads++;
            return [1, 2];
          },
        }),
        declaration('counted', {}, { returns: { type: 'object', properties: { rows: { type: 'array', items: { type: 'string' } } } } }),
      ),
    );
    const result = await new ToolExecutor({ registry }).executeToolCall({ id: 't', name: 'counted', arguments: '{}' });
    expect(failed(result).error.code).toBe('invalid_output');
    expect(reads).toBe(1);
  });

  it('keeps -0 as a plain zero', async () => {
    const registry = new ToolRegistry();
    registry.register(hostileTool(HOSTILE_RETURNS['-0']!, 'read-only'));
    expect(await new ToolExecutor({ registry }).executeToolCall({ id: 't', name: 'hostile', arguments: '{}' })).toMatchObject({
      status: 'completed',
      content: '0',
    });
  });
});
