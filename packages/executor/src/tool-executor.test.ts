import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext } from '@toolwright/tool';
import { decodeOpenAIStrictArguments } from '@toolwright/registry';
import type { ArgumentDecoder, ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { ExecutorEvent } from './events.js';
import type { ApprovalRequest } from './ports.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { completed, failed } from './test-support/call-results.js';
import { testProof } from './test-support/policy-proof.js';

const readFile = defineTool(
  async (path: string, limit?: number) => `contents of ${path}${limit ? ` (${limit} lines)` : ''}`,
  declaration('read_file', { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, { required: ['path'], returns: { type: 'string' } }),
);
const writeFile = defineTool(
  async (path: string, content: string) => ({ written: content.length, path }),
  declaration('write_file', { path: { type: 'string' }, content: { type: 'string' } }, { metadata: { tier: 'side-effecting' } }),
);
const shellExec = defineTool(
  async (command: string) => `ran ${command}`,
  declaration('shell_exec', { command: { type: 'string' } }, { metadata: { tier: 'privileged' } }),
);

function setup(options: Partial<ExecutorOptions> = {}) {
  const registry = new ToolRegistry();
  registry.register(readFile);
  registry.register(writeFile);
  registry.register(shellExec);
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({ registry, audit, ...options });
  return { registry, audit, executor };
}

const call = (name: string, args: unknown, id = 'call_1') => ({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('ToolExecutor.executeToolCall', () => {
  it('runs a valid call and returns its output, hash and duration', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_file', { path: 'a.txt', limit: 5 }));
    expect(result).toMatchObject({ status: 'completed', content: 'contents of a.txt (5 lines)', output: 'contents of a.txt (5 lines)', truncated: false });
    expect(completed(result).outputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers an unknown tool with the nearest valid names', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_fiel', { path: 'a' }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'unknown_tool', suggestions: ['read_file'] } });
    expect(result.content).toBe("Tool execution failed: there is no tool named 'read_fiel'. Did you mean 'read_file'?");
  });

  it('answers a missing field with a message naming the field, for the model to correct itself', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_file', {}));
    expect(result.content).toContain("Tool execution failed: missing required field 'path' in arguments");
  });

  it('reports every violation with its JSON path, and never coerces types', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_file', { path: 7, limit: '5', extra: true }));
    const { error } = failed(result);
    expect(error).toMatchObject({ code: 'invalid_arguments' });
    const issues = error.code === 'invalid_arguments' ? error.issues : [];
    expect(issues.map((i) => i.path).sort()).toEqual(['$.extra', '$.limit', '$.path']);
    expect(result.content).toContain("'path' must be a string");
    expect(result.content).toContain("'limit' must be an integer");
    expect(result.content).toContain("unexpected field 'extra'");
  });

  it('answers malformed JSON with a position', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_file', '{"path": "a.txt"'));
    expect(result.content).toMatch(/^Tool execution failed: the arguments of 'read_file' are not valid JSON: .* at line 1, column 17/);
  });

  it('writes the audit sequence Requested → CapabilityCheck → PolicyDecision → Completed', async () => {
    const { executor, audit } = setup();
    await executor.executeToolCall(call('write_file', { path: 'a', content: 'x' }));
    expect(audit.records.map((r) => r.type)).toEqual(['ToolCallRequested', 'CapabilityCheck', 'PolicyDecision', 'ToolCallCompleted']);
    expect(audit.records[0]).toMatchObject({ tool: 'write_file', args: { path: 'a', content: 'x' }, argsHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('records rejected calls too', async () => {
    const { executor, audit } = setup();
    await executor.executeToolCall(call('read_file', {}));
    expect(audit.records.map((r) => r.type)).toEqual(['ToolCallRequested', 'ToolCallRejected']);
    expect(audit.records[1]).toMatchObject({ code: 'invalid_arguments' });
  });

  it('passes the call context to the tool', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        async () => {
          const context = getToolContext();
          return { callId: context?.callId, task: context?.taskId, aborted: context?.signal.aborted };
        },
        declaration('whoami', {}),
      ),
    );
    const executor = new ToolExecutor({ registry });
    const result = await executor.executeToolCall(call('whoami', {}, 'c42'), { taskId: 't1' });
    expect(completed(result).output).toEqual({ callId: 'c42', task: 't1', aborted: false });
  });

  it('shows a tool only its call in the context: spread or logged, no executor internals', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        async () => {
          const context = getToolContext()!;
          const { progress, signal } = context;
          progress({ message: 'unbound call works' });
          return { spread: { ...context }, json: JSON.parse(JSON.stringify(context)) as unknown, signal: signal instanceof AbortSignal };
        },
        declaration('peek', {}),
      ),
    );
    const executor = new ToolExecutor({ registry });
    const updates: unknown[] = [];
    executor.on((event) => {
      if (event.type === 'tool_call_update') updates.push(event.progress);
    });
    const result = await executor.executeToolCall(call('peek', {}, 'c7'), { sessionId: 's1' });
    const visible = { callId: 'c7', toolName: 'peek', sessionId: 's1', outputBudget: { maxChars: 16 * 1024 } };
    expect(completed(result).output).toEqual({ spread: visible, json: visible, signal: true });
    expect(updates).toEqual([{ message: 'unbound call works' }]);
  });

  it('ends a call at the shorter of the tool and caller limits even if the tool ignores the signal', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(() => new Promise(() => {}), declaration('hang', {})));
    const executor = new ToolExecutor({ registry });
    const result = await executor.executeToolCall(call('hang', {}), { timeoutMs: 20 });
    expect(result).toMatchObject({ status: 'error', error: { code: 'timeout', timeoutMs: 20 } });
  });

  it('checks the output against the returns schema', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 123, declaration('liar', {}, { returns: { type: 'string' } })));
    const result = await new ToolExecutor({ registry }).executeToolCall(call('liar', {}));
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_output' } });
    expect(result.content).toContain('This is a bug in the tool');
  });

  it('truncates long output, keeps the full text retrievable', async () => {
    const registry = new ToolRegistry();
    const big = 'a'.repeat(40_000);
    registry.register(defineTool(async () => big, declaration('big', {})));
    const executor = new ToolExecutor({ registry });
    const result = await executor.executeToolCall(call('big', {}, 'c-big'));
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/\n\[… output cut: characters 9,[\d,]+–[\d,]+ of 40,000 omitted; the host keeps the full output of call c-big …\]\n/);
    expect(result.content.length).toBeLessThanOrEqual(16 * 1024);
    expect(completed(result).output).toBe(big);
    expect(executor.getFullOutput('c-big')).toBe(big);
  });
});

describe('safety gate', () => {
  it('refuses a privileged call when no approval can be asked for', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('shell_exec', { command: 'ls' }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'approval_required' } });
  });

  it('asks for privileged calls, passing the exact call, and runs on "once" without remembering it', async () => {
    const asked: ApprovalRequest[] = [];
    const { executor } = setup({ approve: async (request) => (asked.push(request), { kind: 'once' }) });
    expect((await executor.executeToolCall(call('shell_exec', { command: 'ls' }, 'a'))).status).toBe('completed');
    expect((await executor.executeToolCall(call('shell_exec', { command: 'ls' }, 'b'))).status).toBe('completed');
    expect(asked.map((r) => r.callId)).toEqual(['a', 'b']);
    expect(asked[0]).toMatchObject({ tool: 'shell_exec', args: { command: 'ls' }, argsHash: expect.any(String) });
  });

  it('remembers "always" for the session', async () => {
    let asked = 0;
    const { executor } = setup({ approve: async () => (asked++, { kind: 'always' }) });
    await executor.executeToolCall(call('shell_exec', { command: 'ls' }, 'a'));
    await executor.executeToolCall(call('shell_exec', { command: 'ls' }, 'b'));
    expect(asked).toBe(1);
  });

  it('passes the rejection message to the model', async () => {
    const { executor } = setup({ approve: async () => ({ kind: 'reject', message: 'not on the production box' }) });
    const result = await executor.executeToolCall(call('shell_exec', { command: 'rm -rf build' }));
    expect(result.content).toBe('Tool execution rejected at approval: not on the production box. Do not retry the same call; ask the user how to proceed.');
  });

  it.for([
    ['autorun_all', 'private:/a.txt', false],
    ['autorun_no_public', 'private:/a.txt', false],
    ['autorun_no_public', 'public:/site/index.html', true],
    ['autorun_none', 'private:/a.txt', true],
  ] as const)('risk mode %s on %s asks: %s', async ([riskMode, path, asks]) => {
    let asked = false;
    const { executor } = setup({ riskMode, approve: async () => ((asked = true), { kind: 'once' }) });
    await executor.executeToolCall(call('write_file', { path, content: 'x' }));
    expect(asked).toBe(asks);
  });

  it('lets a policy deny before anyone is asked, with the rule as proof', async () => {
    let asked = false;
    const { executor, audit } = setup({
      approve: async () => ((asked = true), { kind: 'once' }),
      policy: {
        decide: ({ tool }) =>
          tool === 'shell_exec'
            ? { effect: 'deny', rule: { text: 'shell_exec(*)', reason: 'no shell here' }, proof: testProof('deny', { rule: 'shell_exec(*)' }) }
            : { effect: 'allow', proof: testProof('allow') },
      },
    });
    const result = await executor.executeToolCall(call('shell_exec', { command: 'ls' }));
    expect(asked).toBe(false);
    expect(result).toMatchObject({ error: { code: 'policy_denied', rule: 'shell_exec(*)' }, proof: { rule: 'shell_exec(*)' } });
    expect(result.content).toBe('Tool execution denied by policy (rule shell_exec(*)): no shell here. Do not retry the same call.');
    expect(audit.records.find((r) => r.type === 'PolicyDecision')).toMatchObject({ effect: 'deny', rule: 'shell_exec(*)' });
  });

  it('refuses a tool whose capabilities were not granted', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 'ok', declaration('net', {}, { metadata: { capabilities: ['net.read'] } })));
    const executor = new ToolExecutor({ registry, capabilities: ['fs.*'] });
    expect(failed(await executor.executeToolCall(call('net', {}))).error).toEqual({ code: 'capability_denied', missing: ['net.read'] });
    expect((await executor.executeToolCall(call('net', {}), { capabilities: ['net.*'] })).status).toBe('completed');
  });

  it('fails side-effecting calls closed when the audit log cannot be written, and still runs reads', async () => {
    const registry = new ToolRegistry();
    registry.register(readFile);
    registry.register(writeFile);
    const executor = new ToolExecutor({
      registry,
      audit: {
        append: async () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    const write = await executor.executeToolCall(call('write_file', { path: 'a', content: 'x' }));
    expect(write).toMatchObject({ status: 'error', error: { code: 'audit_failed' } });
    expect((await executor.executeToolCall(call('read_file', { path: 'a' }))).status).toBe('completed');
  });
});

describe('doom-loop guard', () => {
  it('asks after the same call returned the same result three times in a row', async () => {
    const reasons: string[] = [];
    const { executor } = setup({ approve: async (request) => (reasons.push(request.reason), { kind: 'reject', message: 'stop looping' }) });
    for (let i = 0; i < 3; i++) expect((await executor.executeToolCall(call('read_file', { path: 'a' }, `c${i}`))).status).toBe('completed');
    const fourth = await executor.executeToolCall(call('read_file', { path: 'a' }, 'c4'));
    expect(failed(fourth).error.code).toBe('approval_denied');
    expect(reasons[0]).toContain('same result 3 times in a row');
  });

  it('keeps polling legal when the result changes', async () => {
    let n = 0;
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => `status ${n++}`, declaration('poll', {})));
    const executor = new ToolExecutor({ registry, doomLoop: { action: 'deny' } });
    for (let i = 0; i < 6; i++) expect((await executor.executeToolCall(call('poll', {}, `p${i}`))).status).toBe('completed');
  });
});

describe('hooks and events', () => {
  it('lets a before-hook block a call or rewrite its arguments (re-validated)', async () => {
    const { executor } = setup({
      hooks: [{ name: 'guard', beforeCall: ({ args }) => (args.path === 'secret' ? { block: 'secrets are off limits' } : { args: { ...args, limit: 1 } }) }],
    });
    expect((await executor.executeToolCall(call('read_file', { path: 'secret' }))).content).toBe('Tool execution blocked: secrets are off limits');
    expect(completed(await executor.executeToolCall(call('read_file', { path: 'a' }))).output).toBe('contents of a (1 lines)');
  });

  it('emits start, update, end in order for a running call', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        async () => {
          getToolContext()?.progress({ message: 'half way', progress: 1, total: 2 });
          return 'done';
        },
        declaration('work', {}),
      ),
    );
    const executor = new ToolExecutor({ registry });
    const events: ExecutorEvent[] = [];
    executor.on((event) => events.push(event));
    await executor.executeToolCall(call('work', {}));
    expect(events.map((e) => e.type)).toEqual(['tool_call_start', 'tool_call_update', 'tool_call_end']);
    expect(events[2]).toMatchObject({ state: 'completed' });
  });

  // `{ heartbeatMs: 1000, ...options }` let an explicit undefined erase the default: a heartbeat every millisecond.
  it.for([undefined, 0, Number.NaN])('keeps the one-second heartbeat when heartbeatMs is %s', async (heartbeatMs) => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => new Promise((resolve) => setTimeout(() => resolve('done'), 80)), declaration('slow', {})));
    const executor = new ToolExecutor({ registry, heartbeatMs });
    const events: ExecutorEvent[] = [];
    executor.on((event) => events.push(event));
    await executor.executeToolCall(call('slow', {}));
    expect(events.filter((e) => e.type === 'tool_call_heartbeat')).toHaveLength(0);
  });
});

describe('any argument string an LLM can produce', () => {
  it('always gets a well-formed result and never throws (20,000 cases)', async () => {
    const { executor } = setup({ approve: async () => ({ kind: 'once' }) });
    const names = fc.constantFrom('read_file', 'write_file', 'shell_exec', 'nope', '');
    const adversarial = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({ path: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), limit: fc.oneof(fc.integer(), fc.string(), fc.double()) }, { requiredKeys: [] })
        .map((v) => JSON.stringify(v)),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
      fc.constantFrom(
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '{"path":"a","path":"b"}',
        `{"path":${'['.repeat(100)}}`,
        '{"path":"\ud800"}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(names, adversarial, async (name, args) => {
        const result = await executor.executeToolCall({ id: 'x', name, arguments: args });
        expect(['completed', 'error']).toContain(result.status);
        expect(typeof result.content).toBe('string');
        if (result.status === 'error') expect(result.error?.code).toBeTypeOf('string');
      }),
      { numRuns: 20_000 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 300_000);
});

describe("decodeArguments (a dialect's hook)", () => {
  const strict: ArgumentDecoder = (args, declared) => decodeOpenAIStrictArguments(declared.parameters, args);

  it('decodes the nulls a strict-mode model sends for optional parameters before validating', async () => {
    const { executor } = setup({ decodeArguments: strict });
    const result = await executor.executeToolCall(call('read_file', { path: 'a.txt', limit: null }));
    expect(result).toMatchObject({ status: 'completed', output: 'contents of a.txt' });
  });

  it('leaves calls alone without one: a null for an optional integer is an error there', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall(call('read_file', { path: 'a.txt', limit: null }));
    expect(result.status === 'error' && result.error.code).toBe('invalid_arguments');
  });

  it('reports a decoder that throws as an internal failure while reading the arguments, the tool not run', async () => {
    const { executor, audit } = setup({
      decodeArguments: () => {
        throw new Error('bad dialect');
      },
    });
    const result = await executor.executeToolCall(call('read_file', { path: 'a.txt' }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'internal_error', stage: 'arguments', ran: false, message: 'bad dialect' } });
    expect(audit.records.at(-1)).toMatchObject({ type: 'ToolCallRejected', code: 'internal_error' });
  });
});

describe('arguments a host already parsed', () => {
  it('runs a call whose arguments are a value, checked and validated as text would be', async () => {
    const { executor, audit } = setup();
    const args = { path: 'a.txt', limit: 5 };
    const result = await executor.executeToolCall({ id: 'v1', name: 'read_file', arguments: args });
    expect(result).toMatchObject({ status: 'completed', output: 'contents of a.txt (5 lines)' });
    expect(audit.records[0]).toMatchObject({ type: 'ToolCallRequested', args });
    const wrong = await executor.executeToolCall({ id: 'v2', name: 'read_file', arguments: { path: 'a.txt', limit: 'five' } });
    expect(wrong).toMatchObject({
      status: 'error',
      error: { code: 'invalid_arguments', issues: [{ path: '$.limit', kind: 'type', expected: ['integer'], received: 'string' }] },
    });
    expect(wrong.content).toBe("Tool execution failed: 'limit' must be an integer (got a string) in arguments. Fix it and call 'read_file' again.");
  });

  it('refuses a parsed value JSON could not have produced, with its path', async () => {
    const { executor } = setup();
    const nan = await executor.executeToolCall({ id: 'v3', name: 'read_file', arguments: { path: 'a.txt', limit: Number.NaN } });
    expect(nan).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', issues: [{ path: '$.limit', kind: 'not_finite', received: 'NaN' }] } });
    const polluted = await executor.executeToolCall({
      id: 'v4',
      name: 'read_file',
      arguments: JSON.parse('{"path":"a","__proto__":{"x":1}}') as Record<string, unknown>,
    });
    expect(polluted).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', issues: [{ path: '$', kind: 'forbidden_key', key: '__proto__' }] } });
  });
});

describe('what the model reads of an output', () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n');

  it('gives the tool the output budget in its context', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => getToolContext()!.outputBudget, declaration('budget', {})));
    const result = await new ToolExecutor({ registry, maxOutputChars: 5000 }).executeToolCall(call('budget', {}));
    expect(result).toMatchObject({ status: 'completed', output: { maxChars: 5000 } });
  });

  it("reads a tool's own rendering as the content, and keeps its structured output for hosts", async () => {
    const registry = new ToolRegistry();
    const tool = defineTool(async () => ({ exitCode: 0, stdout: 'hi' }), declaration('exec', {}));
    registry.register(tool);
    const registered = registry.get('exec')!;
    registered.renderForModel = (output) => `exit code ${(output as { exitCode: number }).exitCode}\n${(output as { stdout: string }).stdout}`;
    const result = await new ToolExecutor({ registry }).executeToolCall(call('exec', {}));
    expect(result).toMatchObject({ status: 'completed', content: 'exit code 0\nhi', output: { exitCode: 0, stdout: 'hi' }, truncated: false });
  });

  it('cuts a long rendering on line boundaries and says exactly which lines and characters it left out, and where the rest is', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => ({ lines: 3000 }), declaration('long', {})));
    registry.get('long')!.renderForModel = () => lines;
    const executor = new ToolExecutor({ registry, maxOutputChars: 2000 });
    const result = await executor.executeToolCall(call('long', {}, 'c-long'));
    expect(result.truncated).toBe(true);
    expect(result.content.length).toBeLessThanOrEqual(2000);
    const note =
      /\[… output cut: lines ([\d,]+)–([\d,]+) of 3,000 omitted \(characters ([\d,]+)–([\d,]+) of ([\d,]+)\); the host keeps the full output of call c-long …\]/.exec(
        result.content,
      );
    expect(note).not.toBeNull();
    const [from, to, fromChar, toChar] = note!.slice(1, 5).map((n) => Number(n.replace(/,/g, '')));
    const [head, tail] = result.content.split(note![0]);
    // Exactly the named lines are missing: the head ends with the line before, the tail starts with the line after.
    expect(head!.trimEnd().split('\n').at(-1)).toBe(`line ${from! - 1}`);
    expect(tail!.trimStart().split('\n')[0]).toBe(`line ${to! + 1}`);
    expect(lines.slice(fromChar! - 1, toChar!)).toBe(`${Array.from({ length: to! - from! + 1 }, (_, i) => `line ${from! + i}`).join('\n')}\n`);
    expect(executor.getFullOutput('c-long')).toBe(lines);
  });

  it('says how to see what was cut when no full output is kept', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 'x'.repeat(5000), declaration('wide', {})));
    const result = await new ToolExecutor({ registry, maxOutputChars: 1000, keepFullOutputs: 0 }).executeToolCall(call('wide', {}, 'c-wide'));
    expect(result.content).toMatch(
      /\[… output cut: characters [\d,]+–[\d,]+ of 5,000 omitted; ask for less at once \(a narrower range, a filter\) to see them …\]/,
    );
  });

  it('reports a renderer that fails as a failure after the tool ran', async () => {
    const registry = new ToolRegistry();
    registry.register(defineTool(async () => 1, declaration('broken', {})));
    registry.get('broken')!.renderForModel = () => {
      throw new Error('no words');
    };
    const result = await new ToolExecutor({ registry }).executeToolCall(call('broken', {}));
    expect(result).toMatchObject({ status: 'error', error: { code: 'internal_error', stage: 'output', ran: true, message: 'no words' } });
  });
});
