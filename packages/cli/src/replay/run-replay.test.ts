import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachToolDeclaration, type Determinism, type ToolDeclaration, type ToolMetadata } from '@toolwright/schema';
import { loadPolicy, MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import type { RecordedCall } from './recorded-calls.js';
import { runReplay } from './run-replay.js';

function declaration(name: string, determinism: Determinism, metadata: Partial<ToolMetadata> = {}): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
    parameterOrder: ['n'],
    metadata: {
      tier: 'read-only',
      timeoutMs: 5_000,
      sideEffects: [],
      capabilities: [],
      determinism,
      resources: { timeoutMs: 5_000 },
      parallel: true,
      tags: [],
      ...metadata,
    },
  };
}

/** The hash the executor records for an output, taken by running it once. */
async function hashOf(output: unknown): Promise<string> {
  const registry = new ToolRegistry();
  registry.register(attachToolDeclaration(async () => output, declaration('h', 'maybe')));
  const result = await new ToolExecutor({ registry }).executeToolCall({ id: 'h', name: 'h', arguments: '{"n":0}' });
  return result.status === 'completed' ? result.outputHash : '';
}

async function setup() {
  const runs: string[] = [];
  const registry = new ToolRegistry();
  registry.register(attachToolDeclaration(async (n: number) => (runs.push('double'), { value: n * 2 }), declaration('double', 'pure')));
  registry.register(attachToolDeclaration(async (n: number) => (runs.push('now'), { value: n, at: Date.now() }), declaration('now', 'non-deterministic')));
  const recorded = (seq: number, tool: string, n: number, output: unknown, outcome: RecordedCall['outcome'] = 'completed'): RecordedCall => ({
    seq,
    callId: `c${seq}`,
    tool,
    args: { n },
    argsHash: `args-${tool}-${n}`,
    outcome,
    output,
  });
  const calls = [
    { ...recorded(1, 'double', 2, { value: 4 }), outputHash: await hashOf({ value: 4 }) },
    { ...recorded(2, 'double', 3, { value: 7 }), outputHash: await hashOf({ value: 7 }) },
    { ...recorded(3, 'now', 1, { value: 1, at: 5 }), outputHash: 'x' },
    { ...recorded(4, 'gone', 1, null), outputHash: 'x' },
    recorded(5, 'double', 9, null, 'failed'),
    { ...recorded(6, 'double', 2, { value: 4 }), outputHash: await hashOf({ value: 4 }) },
  ];
  const out: string[] = [];
  const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
  return { registry, calls, runs, io, out };
}

describe(runReplay, () => {
  it('compares pure calls by output hash, prints a diff for a mismatch, and skips what it cannot replay', async () => {
    const { registry, calls, runs, io, out } = await setup();
    const audit = new MemoryAuditSink();
    const summary = await runReplay(calls, registry, { audit }, '/ws', io);
    expect(summary).toMatchObject({ matched: 2, mismatched: 1, failed: 1, notCompleted: 1 });
    expect([...summary.skipped]).toEqual([
      ['now', { count: 1, reason: "its determinism is 'non-deterministic' (only pure and deterministic tools are replayed)" }],
    ]);
    // Calls with the same tool and arguments run once; other determinism levels never run.
    expect(runs).toEqual(['double', 'double']);
    const text = out.join('');
    expect(text).toContain('ok     seq 1 double (c1)\n');
    expect(text).toMatch(
      /DIFFER seq 2 double \(c2\): output sha-256 [0-9a-f]{64}, recorded [0-9a-f]{64}\n--- double c2 \(recorded\)\n\+\+\+ double c2 \(replayed\)\n@@ -1,3 \+1,3 @@\n \{\n- {2}"value": 7\n\+ {2}"value": 6\n \}\n/,
    );
    expect(text).toContain("FAIL   seq 4 gone (c4): no tool named 'gone' is registered now");
    expect(text).toContain("skip   1 call of now: its determinism is 'non-deterministic' (only pure and deterministic tools are replayed)");
    expect(text).toContain('skip   1 call the log does not show completed (no output to compare)');
    expect(text).toContain('2 matched, 1 differ, 1 failed');
    expect(audit.records.filter((record) => record.type === 'ToolCallCompleted')).toHaveLength(2);
  });

  it('goes through the policy: a call it denies is a failure, and its tool never runs', async () => {
    const { registry, calls, runs, io, out } = await setup();
    const policy = loadPolicy({ rules: [{ deny: 'double', reason: 'no replays' }] });
    const summary = await runReplay(calls.slice(0, 1), registry, { policy }, '/ws', io);
    expect(summary).toMatchObject({ matched: 0, mismatched: 0, failed: 1 });
    expect(runs).toEqual([]);
    expect(out.join('')).toContain('FAIL   seq 1 double (c1): the replay ended as policy_denied: ');
  });

  it.for([
    { tier: 'side-effecting', sideEffects: ['fs-write'], reason: "changes the world (its tier is 'side-effecting'; only read-only tools are re-run)" },
    { tier: 'privileged', sideEffects: [], reason: "changes the world (its tier is 'privileged'; only read-only tools are re-run)" },
    { tier: 'read-only', sideEffects: ['fs-read', 'fs-write'], reason: "changes the world (it declares the side effect 'fs-write'; only reads are re-run)" },
    { tier: 'read-only', sideEffects: ['process-spawn'], reason: "changes the world (it declares the side effect 'process-spawn'; only reads are re-run)" },
    { tier: 'read-only', sideEffects: ['net-write'], reason: "changes the world (it declares the side effect 'net-write'; only reads are re-run)" },
  ] as const)('never re-runs a deterministic tool that changes the world ($tier, $sideEffects)', async ({ tier, sideEffects, reason }) => {
    const runs: number[] = [];
    const registry = new ToolRegistry();
    registry.register(
      attachToolDeclaration(async (n: number) => (runs.push(n), { value: n }), declaration('write', 'deterministic', { tier, sideEffects: [...sideEffects] })),
    );
    const out: string[] = [];
    const call: RecordedCall = {
      seq: 1,
      callId: 'c1',
      tool: 'write',
      args: { n: 1 },
      argsHash: 'h',
      outcome: 'completed',
      output: { value: 1 },
      outputHash: await hashOf({ value: 1 }),
    };
    const summary = await runReplay([call], registry, { approve: async () => ({ kind: 'once' }) }, '/ws', {
      out: (text) => out.push(text),
      err: (text) => out.push(text),
    });
    expect(runs).toEqual([]);
    expect(summary).toMatchObject({ matched: 0, mismatched: 0, failed: 0 });
    expect([...summary.skipped]).toEqual([['write', { count: 1, reason }]]);
    expect(out.join('')).toContain(`skip   1 call of write: ${reason}\n`);
  });

  it('never answers from the output cache, even when the options bring one', async () => {
    const { registry, calls, runs, io } = await setup();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-replay-cache-'));
    try {
      const cache = { dir };
      // The recorded call, run once with the cache: the pure tool's output is now on disk.
      await new ToolExecutor({ registry, cache }).executeToolCall({ id: 'first', name: 'double', arguments: '{"n":2}' }, { workspace: dir });
      expect(runs).toEqual(['double']);
      const audit = new MemoryAuditSink();
      const summary = await runReplay(calls.slice(0, 1), registry, { audit, cache }, dir, io);
      expect(summary).toMatchObject({ matched: 1, failed: 0 });
      expect(runs).toEqual(['double', 'double']);
      expect(audit.records.find((record) => record.type === 'ToolCallCompleted')).not.toHaveProperty('cacheHit');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("groups identical calls by their arguments, not by the log's argsHash", async () => {
    const { registry, calls, runs, io, out } = await setup();
    // Two different calls that claim the same argsHash: each runs, and the second's output is compared with its own replay.
    const forged = [
      { ...calls[0]!, argsHash: 'same' },
      { ...calls[1]!, argsHash: 'same' },
    ];
    const summary = await runReplay(forged, registry, {}, '/ws', io);
    expect(runs).toEqual(['double', 'double']);
    expect(summary).toMatchObject({ matched: 1, mismatched: 1 });
    expect(out.join('')).toContain('+  "value": 6');
    // The same arguments with different claimed hashes still run once.
    runs.length = 0;
    await runReplay(
      [
        { ...calls[0]!, argsHash: 'a' },
        { ...calls[0]!, callId: 'c9', argsHash: 'b' },
      ],
      registry,
      {},
      '/ws',
      io,
    );
    expect(runs).toEqual(['double']);
  });
});
