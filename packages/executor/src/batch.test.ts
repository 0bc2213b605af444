import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor } from './tool-executor.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { completed } from './test-support/call-results.js';

/** Records which calls overlap in time, without measuring time. */
function tracker() {
  const active = new Set<string>();
  const overlaps: [string, string][] = [];
  let maxActive = 0;
  const run = async (id: string) => {
    for (const other of active) overlaps.push([other, id]);
    active.add(id);
    maxActive = Math.max(maxActive, active.size);
    await new Promise((resolve) => setTimeout(resolve, 15));
    active.delete(id);
    return id;
  };
  return {
    run,
    overlaps,
    get maxActive() {
      return maxActive;
    },
  };
}

function setup() {
  const t = tracker();
  const registry = new ToolRegistry();
  registry.register(defineTool(async (path: string) => t.run(`read:${path}`), declaration('read', { path: { type: 'string' } })));
  registry.register(
    defineTool(async (path: string) => t.run(`write:${path}`), declaration('write', { path: { type: 'string' } }, { metadata: { tier: 'side-effecting' } })),
  );
  registry.register(
    defineTool(async (note: string) => t.run(`mutate:${note}`), declaration('mutate', { note: { type: 'string' } }, { metadata: { tier: 'side-effecting' } })),
  );
  return { t, executor: new ToolExecutor({ registry }) };
}
const c = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: JSON.stringify(args) });

describe('ToolExecutor.executeBatch', () => {
  it('runs contiguous reads together and returns results in call order', async () => {
    const { t, executor } = setup();
    const calls = Array.from({ length: 20 }, (_, i) => c(`r${i}`, 'read', { path: `f${i}` }));
    const results = await executor.executeBatch(calls);
    expect(results.map((r) => completed(r).output)).toEqual(calls.map((_, i) => `read:f${i}`));
    expect(t.maxActive).toBe(16); // the default concurrency bound
  });

  it('holds a smaller concurrency bound when asked', async () => {
    const { t, executor } = setup();
    await executor.executeBatch(
      Array.from({ length: 6 }, (_, i) => c(`r${i}`, 'read', { path: `f${i}` })),
      {},
      { concurrency: 2 },
    );
    expect(t.maxActive).toBe(2);
  });

  it('makes a write with no known target a barrier between reads', async () => {
    const { t, executor } = setup();
    await executor.executeBatch([c('1', 'read', { path: 'a' }), c('2', 'read', { path: 'b' }), c('3', 'mutate', { note: 'x' }), c('4', 'read', { path: 'c' })]);
    const involving = (id: string) => t.overlaps.filter((pair) => pair.includes(id));
    expect(involving('mutate:x')).toEqual([]);
    expect(t.overlaps).toContainEqual(['read:a', 'read:b']);
  });

  it('overlaps writes to different files, but a read waits for a pending write to its path', async () => {
    const { t, executor } = setup();
    await executor.executeBatch([
      c('1', 'write', { path: 'a.txt' }),
      c('2', 'write', { path: 'b.txt' }),
      c('3', 'read', { path: 'a.txt' }),
      c('4', 'read', { path: 'c.txt' }),
    ]);
    expect(t.overlaps).toContainEqual(['write:a.txt', 'write:b.txt']);
    expect(t.overlaps.some((pair) => pair.includes('write:a.txt') && pair.includes('read:a.txt'))).toBe(false);
    expect(t.overlaps.some((pair) => pair.includes('read:c.txt'))).toBe(true);
  });

  it('skips calls not yet started once the user interrupts, with a placeholder result', async () => {
    const { executor } = setup();
    let interrupted = false;
    executor.on((event) => {
      if (event.type === 'tool_call_end' && event.callId === '1') interrupted = true;
    });
    const results = await executor.executeBatch(
      [c('1', 'mutate', { note: 'a' }), c('2', 'mutate', { note: 'b' }), c('3', 'read', { path: 'x' })],
      {},
      { interrupted: () => interrupted },
    );
    expect(results.map((r) => r.status)).toEqual(['completed', 'error', 'error']);
    expect(results[1]).toMatchObject({ error: { code: 'skipped' }, content: 'Tool call skipped: the user interrupted before this call ran' });
  });

  it('emits batch start and end around the calls', async () => {
    const { executor } = setup();
    const types: string[] = [];
    executor.on((event) => types.push(event.type));
    await executor.executeBatch([c('1', 'read', { path: 'a' })]);
    expect(types[0]).toBe('tool_calls_batch_start');
    expect(types.at(-1)).toBe('tool_calls_batch_end');
  });
});
