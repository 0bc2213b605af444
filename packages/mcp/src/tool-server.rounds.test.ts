import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MemoryAuditSink, loadPolicy, type ExecutorOptions } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { getToolContext } from '@toolwright/tool';
import { pathToolDeclaration } from './test-support/path-tool.js';
import { McpToolServer, type McpToolServerOptions } from './tool-server.js';
import { serveHttp, type HttpServer } from './serve-http.js';

// What a 2026-07-28 client's retry carries counts only for the very question the person saw: the same call, the same
// kind of question, the same wording (the reason, the protected paths, the tool's own question) — else it is asked
// again. A state the server cannot verify is refused (-32602): the client starts the call over.

const MODERN = '2026-07-28';
const servers: HttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

const declaration = pathToolDeclaration;

async function serve(registry: ToolRegistry, executor: Partial<ExecutorOptions> = {}, options: Partial<McpToolServerOptions> = {}) {
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink(), ...executor }, ...options });
  const server = await serveHttp(tools);
  servers.push(server);
  return server.url;
}

/** A 2026-07-28 client that answers each round by hand: `ask` returns the round's input_required result, `retry` answers it. */
async function manualClient(url: string) {
  const client = new Client(
    { name: 'rounds', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false }, versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  type Round = { resultType?: string; inputRequests?: Record<string, { params: { message: string } }>; requestState?: string; content?: { text: string }[] };
  const call = async (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args, ...extra } as never, { allowInputRequired: true })) as unknown as Round;
  return { call };
}

describe('a 2026-07-28 approval carried to the retry', () => {
  it('is asked again when the question changed: the run now names a protected path the person was not shown', async () => {
    const registry = new ToolRegistry();
    const ran: string[] = [];
    registry.register(attachToolDeclaration(async (path: string) => (ran.push(path), `wrote ${path}`), declaration('write_it', 'privileged')));
    let protectedNow = false; // the file system changes between the question and the retry (a link flipped)
    const riskLevel = {
      write_it: () => (protectedNow ? { level: 'risky' as const, reason: 'a protected path', protectedPaths: ['.env'] } : ('safe' as const)),
    };
    const { call } = await manualClient(await serve(registry, { riskLevel }));
    const first = await call('write_it', { path: 'notes.txt' });
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests!.approval!.params.message).not.toContain('.env');
    protectedNow = true;
    const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
    const retried = await call('write_it', { path: 'notes.txt' }, { inputResponses: yes, requestState: first.requestState });
    expect(retried.resultType).toBe('input_required');
    expect(retried.inputRequests!.approval!.params.message).toContain('.env');
    expect(ran).toEqual([]);
    // Answered now that it names the path: it runs.
    const answered = await call('write_it', { path: 'notes.txt' }, { inputResponses: yes, requestState: retried.requestState });
    expect(answered.resultType).toBeUndefined();
    expect(ran).toEqual(['notes.txt']);
  });

  it('carries across processes that share the key, and is refused where the key differs', async () => {
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async (path: string) => `wrote ${path}`, declaration('write_it', 'privileged')));
    const policy = loadPolicy({ rules: [{ ask: 'write_it' }] });
    const key = 'a shared secret of at least thirty-two bytes';
    const [a, b, other] = [
      await serve(registry, { policy }, { stateKey: key }),
      await serve(registry, { policy }, { stateKey: key }),
      await serve(registry, { policy }, { stateKey: `${key} but another` }),
    ];
    const first = await (await manualClient(a)).call('write_it', { path: 'x' });
    const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
    const onB = await (await manualClient(b)).call('write_it', { path: 'x' }, { inputResponses: yes, requestState: first.requestState });
    expect(onB.content?.[0]?.text).toContain('wrote x');
    await expect((await manualClient(other)).call('write_it', { path: 'x' }, { inputResponses: yes, requestState: first.requestState })).rejects.toThrow(
      /Invalid or expired requestState/,
    );
  });
});

describe('a 2026-07-28 state sealed for one call', () => {
  it('carries its approval to no call but that one: every other tool or argument is asked again, the very call runs', async () => {
    const registry = new ToolRegistry();
    const ran: string[] = [];
    const twoArgs: ToolDeclaration = {
      ...declaration('write_it', 'privileged'),
      parameterOrder: ['path', 'mode'],
      parameters: { type: 'object', properties: { path: { type: 'string' }, mode: { type: 'string' } }, required: ['path'], additionalProperties: false },
    };
    registry.register(attachToolDeclaration(async (path: string, mode?: string) => (ran.push(`${path}:${mode ?? ''}`), 'wrote'), twoArgs));
    registry.register(attachToolDeclaration(async (path: string) => (ran.push(`other:${path}`), 'wrote'), declaration('other_tool', 'privileged')));
    const { call } = await manualClient(await serve(registry, { policy: loadPolicy({ rules: [{ ask: '*' }] }) }));
    const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
    const asked = await call('write_it', { path: 'a.txt', mode: 'w' });
    // What a retry may swap: the value, a key, the type, a nesting, the tool.
    const others: [string, Record<string, unknown>][] = [
      ['write_it', { path: 'b.txt', mode: 'w' }],
      ['write_it', { path: 'a.txt', mode: 'a' }],
      ['write_it', { path: 'a.txt' }],
      ['write_it', { path: 'a.txt', mode: 'w', extra: 1 }],
      ['write_it', { path: 'a.txt ', mode: 'w' }],
      ['write_it', { path: ['a.txt'], mode: 'w' }],
      ['other_tool', { path: 'a.txt' }],
    ];
    for (const [name, args] of others) {
      const retried = await call(name, args, { inputResponses: yes, requestState: asked.requestState });
      expect(retried.resultType === 'input_required' || retried.content?.[0]?.text.includes('failed'), `${name} ${JSON.stringify(args)}`).toBe(true);
    }
    expect(ran).toEqual([]);
    const same = await call('write_it', { path: 'a.txt', mode: 'w' }, { inputResponses: yes, requestState: asked.requestState });
    expect(same.resultType).toBeUndefined();
    expect(ran).toEqual(['a.txt:w']);
  });
});

describe('a 2026-07-28 retry', () => {
  it('is good once: the same state and answers sent again are asked again, not run twice', async () => {
    const registry = new ToolRegistry();
    const ran: string[] = [];
    registry.register(attachToolDeclaration(async (path: string) => (ran.push(path), `wrote ${path}`), declaration('write_it', 'privileged')));
    const { call } = await manualClient(await serve(registry, { policy: loadPolicy({ rules: [{ ask: 'write_it' }] }) }));
    const first = await call('write_it', { path: 'x' });
    const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
    const [one, two] = await Promise.all([
      call('write_it', { path: 'x' }, { inputResponses: yes, requestState: first.requestState }),
      call('write_it', { path: 'x' }, { inputResponses: yes, requestState: first.requestState }),
    ]);
    expect([one.resultType, two.resultType].sort()).toEqual(['input_required', undefined]); // one ran, the other is asked again
    const again = await call('write_it', { path: 'x' }, { inputResponses: yes, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(ran).toEqual(['x']);
  });
});

describe('the rounds of one 2026-07-28 call in the audit log', () => {
  it('name the first round: each retry records retryOf, and the answers given are recorded as actions', async () => {
    const registry = new ToolRegistry();
    registry.register(
      attachToolDeclaration(
        async (path: string) => {
          const answer = await getToolContext()!.elicit('Proceed?', { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] });
          return `${path}: ${answer.action}`;
        },
        declaration('asks_twice', 'privileged'),
      ),
    );
    const audit = new MemoryAuditSink();
    const { call } = await manualClient(await serve(registry, { audit, policy: loadPolicy({ rules: [{ ask: 'asks_twice' }] }) }));
    const first = await call('asks_twice', { path: 'p' });
    const approved = await call(
      'asks_twice',
      { path: 'p' },
      { inputResponses: { approval: { action: 'accept', content: { decision: 'once' } } }, requestState: first.requestState },
    );
    expect(Object.keys(approved.inputRequests!)).toEqual(['question']);
    const done = await call(
      'asks_twice',
      { path: 'p' },
      { inputResponses: { question: { action: 'accept', content: { yes: true } } }, requestState: approved.requestState },
    );
    expect(done.content?.[0]?.text).toBe('p: accept');
    const requested = audit.records.filter((record) => record.type === 'ToolCallRequested');
    expect(requested).toHaveLength(3);
    const origin = requested[0]!.callId;
    expect(requested[0]!.retryOf).toBeUndefined();
    expect(requested.slice(1).map((record) => record.retryOf)).toEqual([origin, origin]);
    const asked = audit.records.filter((record) => record.type === 'ToolAsked');
    expect(asked.at(-1)).toMatchObject({ callId: requested[2]!.callId, answers: { question: { action: 'accept' } } });
  });
});

describe("a 2026-07-28 answer to a tool's own question", () => {
  it('is given only to the question it answered: a run that words it otherwise is asked again', async () => {
    const registry = new ToolRegistry();
    let target = 'scratch/';
    const deleted: string[] = [];
    registry.register(
      attachToolDeclaration(
        async (path: string) => {
          const answer = await getToolContext()!.elicit(`Delete everything under ${target}?`, {
            type: 'object',
            properties: { yes: { type: 'boolean' } },
            required: ['yes'],
          });
          if (answer.action === 'accept' && answer.content.yes) deleted.push(`${path}:${target}`);
          return 'done';
        },
        declaration('clean', 'read-only'),
      ),
    );
    const { call } = await manualClient(await serve(registry));
    const first = await call('clean', { path: 'p' });
    expect(first.inputRequests!.question!.params.message).toContain('scratch/');
    target = '/home/user/'; // what the tool would ask about changed before the retry
    const yes = { question: { action: 'accept', content: { yes: true } } };
    const retried = await call('clean', { path: 'p' }, { inputResponses: yes, requestState: first.requestState });
    expect(retried.resultType).toBe('input_required');
    expect(retried.inputRequests!.question!.params.message).toContain('/home/user/');
    expect(deleted).toEqual([]);
  });
});

describe('a 2026-07-28 client over HTTP', () => {
  it('hears that the tool list changed on its subscription stream', async () => {
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async (path: string) => path, declaration('first', 'read-only')));
    const url = await serve(registry);
    const heard: string[][] = [];
    const client = new Client(
      { name: 'listening', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: MODERN } },
        listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => heard.push((tools ?? []).map((t) => t.name)) } },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the subscription stream opens
    registry.register(attachToolDeclaration(async (path: string) => path, declaration('second', 'read-only')));
    await expect.poll(() => heard.at(-1), { timeout: 5000 }).toEqual(['first', 'second']);
  });
});

describe('an array result', () => {
  it('goes as it is to a 2026-07-28 client, and wrapped as { result } to a 2025-11-25 one', async () => {
    const registry = new ToolRegistry();
    const list: ToolDeclaration = { ...declaration('names', 'read-only'), returns: { type: 'array', items: { type: 'string' } } };
    registry.register(attachToolDeclaration(async (path: string) => [path, `${path}2`], list));
    const url = await serve(registry);
    for (const [mode, schema, structured] of [
      [{ pin: MODERN }, { type: 'array', items: { type: 'string' } }, ['a', 'a2']],
      [
        'legacy',
        { type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'], additionalProperties: false },
        { result: ['a', 'a2'] },
      ],
    ] as const) {
      const client = new Client({ name: 'arrays', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      expect((await client.listTools()).tools[0]!.outputSchema).toEqual(schema);
      expect((await client.callTool({ name: 'names', arguments: { path: 'a' } })).structuredContent).toEqual(structured);
    }
  });
});
