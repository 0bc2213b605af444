import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { ToolMetadata } from '@toolwright/schema';
import { loadPolicy } from '../policy/policy.js';
import { declaration, defineTool } from '../test-support/declare-tool.js';
import { call, setup, tempDir } from '../test-support/cache-setup.js';
import { ToolExecutor } from '../tool-executor.js';
import type { ToolHooks } from '../hooks.js';
import { OutputCache } from './output-cache.js';

describe(OutputCache, () => {
  it('runs a pure tool once for the same arguments, and again for other arguments', async () => {
    const { executor, runs, audit } = setup();
    const first = await executor.executeToolCall(call({ text: 'a' }, 'c1'));
    const second = await executor.executeToolCall(call({ text: 'a' }, 'c2'));
    const other = await executor.executeToolCall(call({ text: 'b' }, 'c3'));
    expect(runs.count).toBe(2);
    expect(first).toMatchObject({ status: 'completed', output: { echoed: 'a', run: 1 } });
    expect(first).not.toHaveProperty('cacheHit');
    expect(second).toMatchObject({
      status: 'completed',
      output: { echoed: 'a', run: 1 },
      cacheHit: 'disk',
      outputHash: (first as { outputHash: string }).outputHash,
    });
    expect(other).toMatchObject({ status: 'completed', output: { echoed: 'b', run: 2 } });
    const completed = audit.records.filter((entry) => entry.type === 'ToolCallCompleted');
    expect(completed.map((entry) => [entry.callId, entry.cacheHit])).toEqual([
      ['c1', undefined],
      ['c2', 'disk'],
      ['c3', undefined],
    ]);
  });

  it("keeps a pure tool's output across executors that share the directory (another session)", async () => {
    const dir = tempDir();
    const one = setup({ cache: { dir } });
    await one.executor.executeToolCall(call({ text: 'a' }));
    const two = setup({ cache: { dir } });
    const result = await two.executor.executeToolCall(call({ text: 'a' }));
    expect(two.runs.count).toBe(0);
    expect(result).toMatchObject({ status: 'completed', output: { echoed: 'a', run: 1 }, cacheHit: 'disk' });
  });

  it('still refuses a cached call the policy denies, and audits the refusal', async () => {
    const dir = tempDir();
    const open = setup({ cache: { dir } });
    expect(await open.executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ status: 'completed' });
    const policy = loadPolicy({ rules: [{ deny: 'x', reason: 'not today' }] });
    const closed = setup({ cache: { dir }, policy });
    const result = await closed.executor.executeToolCall(call({ text: 'a' }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'policy_denied' } });
    expect(closed.runs.count).toBe(0);
    expect(closed.audit.records.map((entry) => entry.type)).toEqual(['ToolCallRequested', 'CapabilityCheck', 'PolicyDecision', 'ToolCallRejected']);
  });

  it('still asks the approver before answering a risky call from the cache', async () => {
    const dir = tempDir();
    const asked: string[] = [];
    const policy = loadPolicy({ rules: [{ ask: 'x' }] });
    const approve = async (request: { callId: string }) => (asked.push(request.callId), { kind: 'once' as const });
    const { executor } = setup({ cache: { dir }, policy, approve });
    await executor.executeToolCall(call({ text: 'a' }, 'c1'));
    const refused = await setup({ cache: { dir }, policy, approve: async () => ({ kind: 'reject' }) }).executor.executeToolCall(call({ text: 'a' }, 'c2'));
    const hit = await executor.executeToolCall(call({ text: 'a' }, 'c3'));
    expect(asked).toEqual(['c1', 'c3']);
    expect(refused).toMatchObject({ status: 'error', error: { code: 'approval_denied' } });
    expect(hit).toMatchObject({ status: 'completed', cacheHit: 'disk' });
  });

  it('never keeps an error', async () => {
    const { executor, runs } = setup({ fail: true });
    await executor.executeToolCall(call({ text: 'a' }));
    const again = await executor.executeToolCall(call({ text: 'a' }));
    expect(runs.count).toBe(2);
    expect(again).toMatchObject({ status: 'error', error: { code: 'tool_failed' } });
  });

  it('ignores a corrupt entry, runs the tool, and replaces the entry', async () => {
    const dir = tempDir();
    const { executor, runs } = setup({ cache: { dir } });
    await executor.executeToolCall(call({ text: 'a' }));
    const [entry] = fs.readdirSync(dir);
    const file = path.join(dir, entry!);
    const whole = fs.readFileSync(file, 'utf8');
    for (const corrupt of [whole.slice(0, 40), whole.replace('"echoed\\":\\"a\\"', '"echoed\\":\\"z\\"'), '\u0000\u0001', '[]']) {
      fs.writeFileSync(file, corrupt);
      const result = await executor.executeToolCall(call({ text: 'a' }));
      expect(result).toMatchObject({ status: 'completed', output: { echoed: 'a' } });
      expect(result).not.toHaveProperty('cacheHit');
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ format: 'toolwright-output-cache/1', tool: 'x' });
    }
    expect(runs.count).toBe(5);
    expect(await executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ cacheHit: 'disk' });
  });

  it('writes entries whole: no temporary file is left behind', async () => {
    const dir = tempDir();
    const { executor } = setup({ cache: { dir } });
    await Promise.all(['a', 'b', 'c'].map((text, index) => executor.executeToolCall(call({ text }, `c${index}`))));
    const names = fs.readdirSync(dir);
    expect(names).toHaveLength(3);
    expect(names.every((name) => /^[0-9a-f]{64}\.json$/.test(name))).toBe(true);
  });

  it('removes the least recently used entries past maxBytes', async () => {
    const dir = tempDir();
    // Each entry is about 2,300 bytes: three fit in 8,000, four do not.
    const { executor, runs } = setup({ cache: { dir, maxBytes: 8_000 } });
    const run = (text: string, id: string) => executor.executeToolCall(call({ text, pad: 2000 }, id));
    await run('a', 'c1');
    await run('b', 'c2');
    await run('c', 'c3');
    await run('a', 'c4'); // a hit: `a` is now the most recently used
    expect(runs.count).toBe(3);
    await run('d', 'c5'); // over the bound: `b`, the least recently used, goes
    const size = fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
    expect(fs.readdirSync(dir)).toHaveLength(3);
    expect(size).toBeLessThanOrEqual(8_000);
    expect(await run('a', 'c6')).toMatchObject({ cacheHit: 'disk' });
    expect(await run('b', 'c7')).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(5);
  });

  it('does not keep an output larger than maxBytes', async () => {
    const dir = tempDir();
    const { executor, runs } = setup({ cache: { dir, maxBytes: 1_000 } });
    await executor.executeToolCall(call({ text: 'a', pad: 5_000 }));
    await executor.executeToolCall(call({ text: 'a', pad: 5_000 }));
    expect(runs.count).toBe(2);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('keeps a deterministic tool in memory within one executor, never across executors nor on disk', async () => {
    const dir = tempDir();
    const session = { sessionId: 's1' };
    const one = setup({ determinism: 'deterministic', cache: { dir } });
    await one.executor.executeToolCall(call({ text: 'a' }, 'c1'), session);
    expect(await one.executor.executeToolCall(call({ text: 'a' }, 'c2'), session)).toMatchObject({ cacheHit: 'memory', output: { run: 1 } });
    expect(one.runs.count).toBe(1);
    const two = setup({ determinism: 'deterministic', cache: { dir } });
    expect(await two.executor.executeToolCall(call({ text: 'a' }, 'c3'), session)).not.toHaveProperty('cacheHit');
    expect(two.runs.count).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(one.audit.records.find((entry) => entry.callId === 'c2' && entry.type === 'ToolCallCompleted')).toMatchObject({ cacheHit: 'memory' });
  });

  it('keeps no deterministic output for calls without a session (callers it cannot tell apart)', async () => {
    const { executor, runs } = setup({ determinism: 'deterministic' });
    await executor.executeToolCall(call({ text: 'a' }));
    expect(await executor.executeToolCall(call({ text: 'a' }))).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
  });

  it("keeps a deterministic tool's outputs apart per actor and capabilities", async () => {
    const { executor, runs } = setup({ determinism: 'deterministic' });
    await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's', actorId: 'alice', capabilities: ['a'] });
    expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's', actorId: 'bob', capabilities: ['a'] })).not.toHaveProperty('cacheHit');
    expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's', actorId: 'alice', capabilities: ['a', 'b'] })).not.toHaveProperty('cacheHit');
    expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's', actorId: 'alice', capabilities: ['a'] })).toMatchObject({
      cacheHit: 'memory',
    });
    expect(runs.count).toBe(3);
  });

  it("keeps a deterministic tool's outputs apart per session", async () => {
    const { executor, runs } = setup({ determinism: 'deterministic' });
    await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's1' });
    expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's2' })).not.toHaveProperty('cacheHit');
    expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's1' })).toMatchObject({ cacheHit: 'memory' });
    expect(runs.count).toBe(2);
  });

  it.for(['maybe', 'non-deterministic'] as const)('never caches a %s tool', async (determinism) => {
    const dir = tempDir();
    const { executor, runs } = setup({ determinism, cache: { dir } });
    await executor.executeToolCall(call({ text: 'a' }));
    expect(await executor.executeToolCall(call({ text: 'a' }))).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });

  it("keeps the tool's own output, not what an after-hook made of it", async () => {
    const hooks: ToolHooks[] = [{ name: 'mark', afterCall: (_call, output) => ({ output: { ...(output as object), hooked: true } }) }];
    const { executor, runs } = setup({ hooks });
    await executor.executeToolCall(call({ text: 'a' }));
    const hit = await executor.executeToolCall(call({ text: 'a' }));
    expect(runs.count).toBe(1);
    expect(hit).toMatchObject({ cacheHit: 'disk', output: { echoed: 'a', hooked: true } });
  });

  it('keys on the tool version: a new version runs again', async () => {
    const dir = tempDir();
    const runs = { count: 0 };
    const executorFor = (version: string) => {
      const registry = new ToolRegistry();
      registry.register(
        defineTool(
          async (text: string) => (runs.count++, text),
          declaration('v', { text: { type: 'string' } }, { metadata: { determinism: 'pure', version } }),
        ),
      );
      return new ToolExecutor({ registry, cache: { dir } });
    };
    await executorFor('1.0.0').executeToolCall({ id: 'a', name: 'v', arguments: '{"text":"t"}' });
    expect(await executorFor('1.0.0').executeToolCall({ id: 'b', name: 'v', arguments: '{"text":"t"}' })).toMatchObject({ cacheHit: 'disk' });
    expect(await executorFor('2.0.0').executeToolCall({ id: 'c', name: 'v', arguments: '{"text":"t"}' })).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
  });

  it('runs a call cancelled before it starts as cancelled, not from the cache', async () => {
    const { executor } = setup();
    await executor.executeToolCall(call({ text: 'a' }));
    const controller = new AbortController();
    controller.abort();
    const result = await executor.executeToolCall(call({ text: 'a' }), { signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
  });

  it.for([
    ['a side-effecting tier', { tier: 'side-effecting' }],
    ['fs-read', { sideEffects: ['fs-read'] }],
    ['net-read', { sideEffects: ['net-read'] }],
    ['fs-write', { sideEffects: ['fs-write'] }],
  ] as [string, Partial<ToolMetadata>][])('never caches a pure or deterministic tool with %s', async ([, metadata]) => {
    for (const determinism of ['pure', 'deterministic'] as const) {
      const dir = tempDir();
      const { executor, runs } = setup({ determinism, metadata, cache: { dir } });
      await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's' });
      expect(await executor.executeToolCall(call({ text: 'a' }), { sessionId: 's' })).not.toHaveProperty('cacheHit');
      expect(runs.count).toBe(2);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    }
  });

  it("caches a read-only tool that declares sideEffects ['none']", async () => {
    const { executor, runs } = setup({ metadata: { sideEffects: ['none'] } });
    await executor.executeToolCall(call({ text: 'a' }));
    expect(await executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ cacheHit: 'disk' });
    expect(runs.count).toBe(1);
  });
});
