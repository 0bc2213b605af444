import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { MemoryAuditSink } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { getToolContext, type AskQuestions } from '@toolwright/tool';
import { McpToolServer } from './tool-server.js';
import { serveHttp, type HttpServer } from './serve-http.js';

// A tool asks the client behind its call a round of questions (`getToolContext().ask`): a person's form, a sample of
// the client's model, the client's roots. A 2026-07-28 client gets them as one input_required result under the tool's
// keys (only what it declared it can answer); a 2025-11-25 client is asked one after another. A tool that cannot work
// without one of them (`requiresClient`) is refused before it runs when the client did not declare it.

const MODERN = '2026-07-28';
const servers: HttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

const ROUND = {
  name: { kind: 'form', message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  greeting: { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text: 'A greeting, please' } }], maxTokens: 20 },
  roots: { kind: 'roots' },
} as const satisfies AskQuestions;

function askingTool(name: string, requiresClient?: ToolDeclaration['metadata']['requiresClient']): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder: [],
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    returns: { type: 'string' },
    metadata: {
      tier: 'read-only',
      timeoutMs: 5000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 5000 },
      parallel: true,
      tags: [],
      ...(requiresClient ? { requiresClient } : {}),
    },
  };
}

/** A server whose `greet` asks the round and returns what it got back, as JSON. */
async function serve(sessions = false) {
  const registry = new ToolRegistry();
  registry.register(attachToolDeclaration(async () => JSON.stringify(await getToolContext()!.ask(ROUND)), askingTool('greet')));
  registry.register(attachToolDeclaration(async () => 'sampled', askingTool('needs_sampling', ['sampling'])));
  const server = await serveHttp(new McpToolServer({ registry, executor: { audit: new MemoryAuditSink() } }), { sessions });
  servers.push(server);
  return server.url;
}

async function client(url: string, mode: 'legacy' | { pin: string }, capabilities: ClientCapabilities, answer = true): Promise<Client> {
  const made = new Client(
    { name: 'asking', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode }, ...(mode === 'legacy' ? {} : { inputRequired: { autoFulfill: false } }) },
  );
  if (answer) {
    if (capabilities.elicitation) made.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    if (capabilities.sampling)
      made.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'test-model' }));
    if (capabilities.roots) made.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  }
  await made.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(made);
  return made;
}

type Round = { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string; content?: { text: string }[] };
const call = async (c: Client, name: string, extra: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: {}, ...extra } as never, { allowInputRequired: true })) as unknown as Round;
const answersOf = (round: Round) => JSON.parse(round.content![0]!.text) as Record<string, { action: string; content?: unknown; message?: string }>;

const EVERYTHING: ClientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
const ANSWERED = {
  name: { action: 'accept', content: { name: 'Ada' } },
  greeting: { action: 'accept', content: { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'test-model' } },
  roots: { action: 'accept', content: [{ uri: 'file:///work', name: 'work' }] },
};

describe('a round of questions to a 2026-07-28 client', () => {
  it('goes out as one input_required result under the tool keys, and the retry brings every answer back, checked', async () => {
    const c = await client(await serve(), { pin: MODERN }, EVERYTHING, false);
    const first = await call(c, 'greet');
    expect(first.resultType).toBe('input_required');
    expect(Object.fromEntries(Object.entries(first.inputRequests!).map(([key, request]) => [key, request.method]))).toEqual({
      name: 'elicitation/create',
      greeting: 'sampling/createMessage',
      roots: 'roots/list',
    });
    const inputResponses = {
      name: { action: 'accept', content: { name: 'Ada' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'test-model' },
      roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
    };
    const done = await call(c, 'greet', { inputResponses, requestState: first.requestState });
    expect(done.resultType).toBeUndefined();
    expect(answersOf(done)).toEqual(ANSWERED);
  });

  it('asks only what the client declared it can answer; the rest is unavailable, saying why', async () => {
    const c = await client(await serve(), { pin: MODERN }, { sampling: {} }, false);
    const first = await call(c, 'greet');
    expect(Object.keys(first.inputRequests!)).toEqual(['greeting']);
    const greeting = { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' };
    const answers = answersOf(await call(c, 'greet', { inputResponses: { greeting }, requestState: first.requestState }));
    expect(answers.greeting).toEqual({ action: 'accept', content: greeting });
    expect(answers.name).toEqual({ action: 'unavailable', message: expect.stringContaining('does not support elicitation') });
    expect(answers.roots).toEqual({ action: 'unavailable', message: expect.stringContaining("'roots' capability") });
  });

  it('keeps the places of the rounds after one it answered itself (nothing the client could answer)', async () => {
    const registry = new ToolRegistry();
    registry.register(
      attachToolDeclaration(async () => {
        const context = getToolContext()!;
        const { roots } = await context.ask({ roots: { kind: 'roots' } });
        const { name } = await context.ask({ name: ROUND.name });
        return JSON.stringify({ roots: roots.action, name });
      }, askingTool('two_rounds')),
    );
    const server = await serveHttp(new McpToolServer({ registry, executor: { audit: new MemoryAuditSink() } }));
    servers.push(server);
    const c = await client(server.url, { pin: MODERN }, { elicitation: { form: {} } }, false);
    const first = await call(c, 'two_rounds');
    expect(Object.keys(first.inputRequests!)).toEqual(['name']);
    const done = await call(c, 'two_rounds', { inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState });
    expect(done.resultType).toBeUndefined();
    expect(JSON.parse(done.content![0]!.text)).toEqual({ roots: 'unavailable', name: { action: 'accept', content: { name: 'Ada' } } });
  });

  it('asks the round again when a key is missing or answered with the wrong kind of response', async () => {
    const c = await client(await serve(), { pin: MODERN }, EVERYTHING, false);
    const first = await call(c, 'greet');
    const wrongKind = { name: { action: 'accept', content: { name: 'Ada' } }, greeting: { roots: [] }, roots: { roots: [] } };
    const again = await call(c, 'greet', { inputResponses: wrongKind, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(Object.keys(again.inputRequests!).sort()).toEqual(['greeting', 'name', 'roots']);
  });

  it('gives the tool a malformed sample or a root that is no file:// URI as unavailable, never as an answer', async () => {
    const c = await client(await serve(), { pin: MODERN }, EVERYTHING, false);
    const first = await call(c, 'greet');
    const inputResponses = {
      name: { action: 'accept', content: { name: 'Ada', extra: 1 } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' } }, // no model
      roots: { roots: [{ uri: 'https://example.com/' }] },
    };
    const answers = answersOf(await call(c, 'greet', { inputResponses, requestState: first.requestState }));
    expect(answers.name).toEqual({ action: 'unavailable', message: expect.stringContaining("'extra'") });
    expect(answers.greeting).toEqual({ action: 'unavailable', message: 'the completion does not name its model' });
    expect(answers.roots).toEqual({ action: 'unavailable', message: expect.stringContaining('not a file:// URI') });
  });
});

describe('a round of questions to a 2025-11-25 client', () => {
  it('is asked one question after another: its user, its model, its roots', async () => {
    const c = await client(await serve(true), 'legacy', EVERYTHING);
    expect(answersOf(await call(c, 'greet'))).toEqual(ANSWERED);
  });

  it('is unavailable where the client cannot answer, and over stateless HTTP, saying why', async () => {
    const c = await client(await serve(true), 'legacy', { roots: {} });
    const answers = answersOf(await call(c, 'greet'));
    expect(answers.roots).toEqual(ANSWERED.roots);
    expect(answers.greeting).toEqual({ action: 'unavailable', message: expect.stringContaining("'sampling' capability") });
    const stateless = await client(await serve(false), 'legacy', EVERYTHING);
    for (const answer of Object.values(answersOf(await call(stateless, 'greet'))))
      expect(answer).toEqual({ action: 'unavailable', message: expect.stringContaining('stateless over HTTP') });
  });
});

describe('a tool that requires a client capability', () => {
  it('is refused before it runs with -32021 naming what to declare (2026-07-28), and runs once declared', async () => {
    const url = await serve();
    const without = await client(url, { pin: MODERN }, { elicitation: { form: {} } }, false);
    const refused = await call(without, 'needs_sampling').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(String((refused as Error).message)).toContain("needs_sampling needs a client that declares 'sampling'");
    const declared = await client(url, { pin: MODERN }, { sampling: {} }, false);
    expect((await call(declared, 'needs_sampling')).content![0]!.text).toBe('sampled');
  });

  it('is an error result for a 2025-11-25 client that did not declare it', async () => {
    const c = await client(await serve(true), 'legacy', { roots: {} });
    const result = (await c.callTool({ name: 'needs_sampling', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("needs a client that declares 'sampling'");
  });
});
