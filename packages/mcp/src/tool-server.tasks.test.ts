import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicy, MemoryAuditSink } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { getToolContext } from '@toolwright/tool';
import { FileTaskStore } from './task-store.js';
import { TASKS_EXTENSION } from './tasks.js';
import { McpToolServer, type McpToolServerOptions } from './tool-server.js';
import { serveHttp, type HttpServer } from './serve-http.js';

// A call of a tool declared with `task` that runs past a moment becomes a task a 2026-07-28 client polls (the Tasks
// extension): tasks/get inlines its result, tasks/update answers its questions, tasks/cancel stops it.

const servers: HttpServer[] = [];
const stores: FileTaskStore[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const store of stores.splice(0)) store.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function declared(name: string, change: Partial<ToolDeclaration['metadata']> = {}): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder: ['ms'],
    parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: [], additionalProperties: false },
    returns: { type: 'string' },
    metadata: {
      tier: 'read-only',
      timeoutMs: 10_000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 10_000 },
      parallel: true,
      tags: [],
      task: 'optional',
      ...change,
    },
  };
}

/** Waits `ms` or until the call is aborted (then says so in `aborted`). */
const aborted: string[] = [];
function pause(ms: number): Promise<void> {
  const { signal, toolName } = getToolContext()!;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), aborted.push(toolName), reject(new Error('aborted'))), { once: true });
  });
}

async function serve(options: Partial<McpToolServerOptions> = {}) {
  const registry = new ToolRegistry();
  registry.register(attachToolDeclaration(async (ms = 0) => (await pause(ms), `slept ${ms}`), declared('slow')));
  registry.register(attachToolDeclaration(async () => 'quick', declared('quick', { task: 'required' })));
  registry.register(
    attachToolDeclaration(async (ms = 0) => {
      await pause(ms);
      const answer = await getToolContext()!.elicit('Go on?', { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] });
      return answer.action === 'accept' && answer.content.go ? 'went on' : `stopped (${answer.action})`;
    }, declared('asks')),
  );
  registry.register(attachToolDeclaration(async (ms = 0) => (await pause(ms), 'written'), declared('writes', { tier: 'privileged' })));
  const confirm = (message: string) => getToolContext()!.elicit(message, { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
  registry.register(
    attachToolDeclaration(async (ms = 0) => {
      await pause(ms);
      const first = await confirm('Delete harmless.txt?');
      const second = await confirm('Delete IMPORTANT.db?');
      return `${first.action} ${second.action}`;
    }, declared('asks_twice')),
  );
  registry.register(
    attachToolDeclaration(async (ms = 0) => {
      await pause(ms);
      const [one, two] = await Promise.all([confirm('One?'), confirm('Two?')]);
      return JSON.stringify([one, two]);
    }, declared('asks_at_once')),
  );
  const server = await serveHttp(
    new McpToolServer({ registry, executor: { audit: new MemoryAuditSink(), policy: loadPolicy({ rules: [{ ask: 'writes' }] }) }, ...options }),
  );
  servers.push(server);
  return server.url;
}

const WITH_TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** One 2026-07-28 request, with the routing headers; the JSON-RPC response. */
async function rpc(url: string, method: string, params: Record<string, unknown>, capabilities: object = WITH_TASKS) {
  const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'tasks', version: '1' },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  return JSON.parse(data ? data.slice(5) : text) as {
    result?: Record<string, unknown> & { taskId?: string; status?: string };
    error?: { code: number; message: string; data?: unknown };
  };
}

async function until(url: string, taskId: string, statuses: string[]) {
  for (let i = 0; i < 100; i++) {
    const task = (await rpc(url, 'tasks/get', { taskId })).result!;
    if (statuses.includes(task.status!)) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} never reached ${statuses.join(' or ')}`);
}

describe('a call that becomes a task', () => {
  it('is answered with the task when it runs past a moment; tasks/get shows it working, then its result', async () => {
    const url = await serve({ tasks: { startAfterMs: 50 } });
    const created = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 400 } })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 500 });
    expect(created).not.toHaveProperty('requestState');
    const working = (await rpc(url, 'tasks/get', { taskId: created.taskId })).result!;
    expect(working).toMatchObject({ resultType: 'complete', status: 'working' });
    expect(working).not.toHaveProperty('result');
    const done = await until(url, created.taskId!, ['completed']);
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'slept 400' }] });
  });

  it('is no task when the call ends within the moment, or the client does not declare the extension', async () => {
    const url = await serve({ tasks: { startAfterMs: 300 } });
    expect((await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 0 } })).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'slept 0' }],
    });
    const plain = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 500 } }, { elicitation: {} })).result!;
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ text: 'slept 500' }] });
  });

  it('stops when cancelled: the tool is aborted, the task is cancelled, and cancelling again is acknowledged', async () => {
    aborted.length = 0;
    const url = await serve({ tasks: { startAfterMs: 50 } });
    const { taskId } = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 5000 } })).result!;
    expect((await rpc(url, 'tasks/cancel', { taskId })).result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect((await rpc(url, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => aborted).toEqual(['slow']);
    expect((await rpc(url, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await rpc(url, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' }); // not completed by the abort
  });

  it('waits in input_required for its question, and works on once tasks/update answers it', async () => {
    const url = await serve({ tasks: { startAfterMs: 50 } });
    const { taskId } = (await rpc(url, 'tools/call', { name: 'asks', arguments: { ms: 200 } })).result!;
    const asking = await until(url, taskId!, ['input_required']);
    // Each round's keys carry its number: an answer meant for another round is never taken by this one.
    expect(Object.keys(asking.inputRequests as object)).toEqual(['1:question']);
    for (const other of ['question', '2:question', 'other'])
      expect((await rpc(url, 'tasks/update', { taskId, inputResponses: { [other]: { action: 'accept', content: { go: true } } } })).result).toMatchObject({
        resultType: 'complete',
      });
    expect((await rpc(url, 'tasks/get', { taskId })).result).toMatchObject({ status: 'input_required' });
    await rpc(url, 'tasks/update', { taskId, inputResponses: { '1:question': { action: 'accept', content: { go: true } } } });
    expect((await until(url, taskId!, ['completed'])).result).toMatchObject({ content: [{ text: 'went on' }] });
  });

  it('takes an answer only in the round it was given for: the same answer again does not answer the next question', async () => {
    const url = await serve({ tasks: { startAfterMs: 20 } });
    const { taskId } = (await rpc(url, 'tools/call', { name: 'asks_twice', arguments: { ms: 100 } })).result!;
    await until(url, taskId!, ['input_required']);
    const yes = { '1:question': { action: 'accept', content: { ok: true } } };
    await rpc(url, 'tasks/update', { taskId, inputResponses: yes });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await rpc(url, 'tasks/update', { taskId, inputResponses: yes }); // late, or replayed
    const second = (await rpc(url, 'tasks/get', { taskId })).result!;
    expect(second).toMatchObject({ status: 'input_required' });
    expect(Object.keys(second.inputRequests as object)).toEqual(['2:question']);
    await rpc(url, 'tasks/update', { taskId, inputResponses: { '2:question': { action: 'decline' } } });
    expect((await until(url, taskId!, ['completed'])).result).toMatchObject({ content: [{ text: 'accept decline' }] });
  });

  it('asks one round at a time: a round asked while another waits is unavailable, saying why', async () => {
    const url = await serve({ tasks: { startAfterMs: 20 } });
    const { taskId } = (await rpc(url, 'tools/call', { name: 'asks_at_once', arguments: { ms: 100 } })).result!;
    const asking = await until(url, taskId!, ['input_required']);
    const [key] = Object.keys(asking.inputRequests as object);
    await rpc(url, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } });
    const [one, two] = JSON.parse(((await until(url, taskId!, ['completed'])).result as { content: { text: string }[] }).content[0]!.text);
    expect(one).toEqual({ action: 'accept', content: { ok: true } });
    expect(two).toEqual({ action: 'unavailable', message: expect.stringContaining('ask one round at a time') });
  });

  it('is asked for approval first, as a round of the call (input_required), and becomes a task once approved', async () => {
    const url = await serve({ tasks: { startAfterMs: 50 } });
    const asked = (await rpc(url, 'tools/call', { name: 'writes', arguments: { ms: 300 } })).result!;
    expect(asked).toMatchObject({ resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create' } } });
    const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
    const created = (await rpc(url, 'tools/call', { name: 'writes', arguments: { ms: 300 }, inputResponses: yes, requestState: asked.requestState })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(created).not.toHaveProperty('requestState');
    expect((await until(url, created.taskId!, ['completed'])).result).toMatchObject({ content: [{ text: 'written' }] });
  });

  it('runs no more tasks at once than maxRunning: an optional one then runs as a plain call, a required one is refused', async () => {
    const url = await serve({ tasks: { startAfterMs: 20, maxRunning: 1 } });
    const first = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 2000 } })).result!;
    expect(first.resultType).toBe('task');
    const second = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 100 } })).result!;
    expect(second).toMatchObject({ resultType: 'complete', content: [{ text: 'slept 100' }] });
    const required = (await rpc(url, 'tools/call', { name: 'quick', arguments: {} })).result!;
    expect(required).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('1 tasks are running already') }] });
    await rpc(url, 'tasks/cancel', { taskId: first.taskId });
    expect((await rpc(url, 'tools/call', { name: 'quick', arguments: {} })).result).toMatchObject({ content: [{ text: 'quick' }] });
  });

  it('refuses tasks to a client without the extension (-32021), and an unknown task (-32602)', async () => {
    const url = await serve();
    const required = await rpc(url, 'tools/call', { name: 'quick', arguments: {} }, { elicitation: {} });
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    expect((await rpc(url, 'tasks/get', { taskId: 'task_x' }, { elicitation: {} })).error?.code).toBe(-32021);
    expect((await rpc(url, 'tasks/get', { taskId: 'task_x' })).error).toMatchObject({ code: -32602, message: expect.stringContaining('no task "task_x"') });
    expect((await rpc(url, 'tasks/cancel', { taskId: 'task_x' })).error?.code).toBe(-32602);
  });

  it('is still known after the server restarts: finished as it was, running as failed (interrupted)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-tasks-restart-'));
    folders.push(dir);
    const file = path.join(dir, 'tasks.jsonl');
    const before = new FileTaskStore(file);
    const url = await serve({ tasks: { store: before, startAfterMs: 20 } });
    const done = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 100 } })).result!;
    await until(url, done.taskId!, ['completed']);
    const running = (await rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 5000 } })).result!;
    await servers.pop()!.close();
    before.close(); // the process is gone
    const after = new FileTaskStore(file);
    stores.push(after);
    const again = await serve({ tasks: { store: after } });
    expect((await rpc(again, 'tasks/get', { taskId: done.taskId })).result).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'slept 100' }] },
    });
    expect((await rpc(again, 'tasks/get', { taskId: running.taskId })).result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('interrupted') },
    });
  });
});
