import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { registerMetaTools } from '@toolwright/core-tools';
import { MemoryAuditSink } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { pathToolDeclaration } from './test-support/path-tool.js';
import { McpToolServer } from './tool-server.js';
import { serveHttp, type HttpServer } from './serve-http.js';

// Deferred loading over MCP: each client the server can tell apart (a connection, a session) lists the tools that are
// not deferred and tool_search, loads what its searches find, hears list_changed and then lists and calls them.

const MODERN = '2026-07-28';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function tool(name: string, description: string, metadata: Partial<ToolDeclaration['metadata']> = {}): ToolDeclaration {
  const base = pathToolDeclaration(name, 'read-only');
  return { ...base, description, metadata: { ...base.metadata, sideEffects: ['none'], ...metadata } };
}

/** A notes tool (listed up front), two GitHub tools deferred by glob, a currency tool declared `defer`, and tool_search. */
function deferredServer() {
  const registry = new ToolRegistry();
  const ran: string[] = [];
  const add = (declaration: ToolDeclaration) =>
    registry.register(attachToolDeclaration(async (path: string) => (ran.push(declaration.name), path), declaration));
  add(tool('read_notes', 'Reads the notes at a path.'));
  add(tool('github_create_issue', 'Opens an issue in a GitHub repository.'));
  add(tool('github_close_issue', 'Closes an issue of a GitHub repository.'));
  add(tool('convert_currency', 'Converts an amount of money to another currency.', { defer: true }));
  registerMetaTools(registry);
  const audit = new MemoryAuditSink();
  const tools = new McpToolServer({ registry, executor: { audit }, defer: { defer: ['github_*'] } });
  return { registry, tools, ran, audit };
}

const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const namesOf = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

/** A client that records each tool list it re-lists on `list_changed`. */
async function connect(transport: Parameters<Client['connect']>[0], mode: 'legacy' | { pin: string } = 'legacy') {
  const heard: string[][] = [];
  const client = new Client(
    { name: 'deferring', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => heard.push((tools ?? []).map((t) => t.name)) } },
    },
  );
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, heard };
}

/** list, search, list_changed, list again, call: what every client the server can tell apart goes through. */
async function searchThenCall(client: Client, heard: string[][], ran: string[]) {
  expect(await namesOf(client)).toEqual(['read_notes', 'tool_search']);
  const refused = await client.callTool({ name: 'github_create_issue', arguments: { path: 'repo' } });
  expect(refused.isError).toBe(true);
  expect(text(refused)).toContain("'github_create_issue' is not loaded yet");
  expect(text(refused)).toContain("Call 'tool_search' first");
  const found = await client.callTool({ name: 'tool_search', arguments: { query: 'open a github issue', limit: 1 } });
  expect(found.isError).toBeFalsy();
  expect(text(found)).toContain('## github_create_issue');
  await expect.poll(() => heard.at(-1), { timeout: 5000 }).toEqual(['github_create_issue', 'read_notes', 'tool_search']);
  expect(await namesOf(client)).toEqual(['github_create_issue', 'read_notes', 'tool_search']);
  const called = await client.callTool({ name: 'github_create_issue', arguments: { path: 'repo' } });
  expect(called.isError).toBeFalsy();
  expect(ran).toEqual(['github_create_issue']);
}

describe('McpToolServer with deferred loading', () => {
  it('a 2025-11-25 client: lists, is refused the unloaded tool, searches, hears list_changed, lists again and calls', async () => {
    const { tools, ran, audit } = deferredServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = tools.createServer();
    await server.connect(serverSide);
    closers.push(() => server.close());
    const { client, heard } = await connect(clientSide);
    await searchThenCall(client, heard, ran);
    expect(audit.records).toContainEqual(expect.objectContaining({ type: 'ToolCallRejected', code: 'tool_not_loaded' }));
    // The listing carries no defer setting of its own: the server did the deferring.
    const { tools: listed } = await client.listTools();
    expect(listed.every((t) => t._meta?.['toolwright/defer'] === undefined)).toBe(true);
  });

  it('a 2026-07-28 client over stdio (a connection pinned to one server): the same, list_changed on its subscription', async () => {
    const { tools, ran } = deferredServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(({ era }) => tools.createServer({ era, repeatScope: 'stdio-test' }), { transport: serverSide });
    closers.push(() => handle.close());
    const { client, heard } = await connect(clientSide, { pin: MODERN });
    await searchThenCall(client, heard, ran);
  });

  it('keeps what each client loaded to itself: another connection still lists and refuses the deferred tools', async () => {
    const { tools } = deferredServer();
    const clients: Client[] = [];
    for (let i = 0; i < 2; i++) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = tools.createServer();
      await server.connect(serverSide);
      closers.push(() => server.close());
      clients.push((await connect(clientSide)).client);
    }
    await clients[0]!.callTool({ name: 'tool_search', arguments: { query: 'convert currency' } });
    expect(await namesOf(clients[0]!)).toContain('convert_currency');
    expect(await namesOf(clients[1]!)).toEqual(['read_notes', 'tool_search']);
    expect((await clients[1]!.callTool({ name: 'convert_currency', arguments: { path: 'x' } })).isError).toBe(true);
  });

  it('over HTTP: a session loads for itself; stateless requests list without the deferred tools and run them when called', async () => {
    const { tools, ran } = deferredServer();
    const http: HttpServer = await serveHttp(tools, { sessions: true });
    closers.push(() => http.close());
    const session = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await searchThenCall(session.client, session.heard, ran);
    // A 2026-07-28 client over HTTP is stateless: there is no client to keep loading for.
    const stateless = await connect(new StreamableHTTPClientTransport(new URL(http.url)), { pin: MODERN });
    expect(await namesOf(stateless.client)).toEqual(['read_notes', 'tool_search']);
    const called = await stateless.client.callTool({ name: 'convert_currency', arguments: { path: '10 EUR' } });
    expect(called.isError).toBeFalsy();
    expect(ran).toEqual(['github_create_issue', 'convert_currency']);
  });

  it('refuses defer without a search tool to find the deferred tools, and bad globs', () => {
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async (path: string) => path, tool('convert_currency', 'Converts money.', { defer: true })));
    expect(() => new McpToolServer({ registry, defer: {} })).toThrow(
      "McpToolServer: defer needs the 'tool_search' tool registered, to find the deferred tools (registerMetaTools(registry) of @toolwright/core-tools)",
    );
    expect(() => new McpToolServer({ registry, defer: { defer: ['a b'] } })).toThrow('"a b" is not a glob of tool names');
  });
});
