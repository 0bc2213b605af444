import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MemoryAuditSink } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { McpToolServer, type McpToolServerOptions } from './tool-server.js';
import { serveHttp, type HttpServeOptions, type HttpServer } from './serve-http.js';
import { HttpServeError } from './http-serve-error.js';
import { stopwatch } from '../../../tools/vitest/ready-wait.mts';

function declaration(name: string): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder: ['text'],
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    returns: { type: 'string' },
    metadata: {
      tier: 'read-only',
      timeoutMs: 5000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'pure',
      resources: { timeoutMs: 5000 },
      parallel: true,
      tags: [],
    },
  };
}

/** A server whose `note` tool records every call it runs (the attack must leave `calls` empty), and whose `wait` tool holds until released. */
async function start(options: HttpServeOptions = {}, executor: McpToolServerOptions['executor'] = {}) {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  const registry = new ToolRegistry();
  registry.register(
    attachToolDeclaration(async (text: string) => {
      calls.push(text);
      return `noted ${text}`;
    }, declaration('note')),
  );
  registry.register(
    attachToolDeclaration(async (text: string) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return text;
    }, declaration('wait')),
  );
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink(), ...executor } });
  const server = await serveHttp(tools, options);
  running.push(server);
  return { server, tools, calls, waiting, host: `127.0.0.1:${server.port}` };
}

const running: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: { error?: { code: number; message: string } };
}

/** One raw HTTP request, with the Host header under the test's control. */
function send(port: number, options: { method?: string; path?: string; headers?: Record<string, string | number>; body?: string | Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: options.headers,
        setHost: !options.headers?.host && !options.headers?.Host,
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          let json: Answer['json'];
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, ...(json ? { json } : {}) });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const callNote = (text = 'pwned') => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'note', arguments: { text } } });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** The body a JSON-RPC refusal must have. */
function expectRefusal(answer: Answer, status: number) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/application\/json/);
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
}

describe('serveHttp: Host and Origin (DNS rebinding)', () => {
  it("refuses a rebinding page's tools/call with 403 and runs nothing", async () => {
    const { server, calls } = await start();
    const port = server.port;
    const rebinding: Record<string, string>[] = [
      { host: `evil.example.com:${port}`, origin: `http://evil.example.com:${port}` },
      { host: `evil.example.com:${port}` },
      { host: `127.0.0.1:${port}`, origin: `http://evil.example.com:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'null' },
      { host: `localhost:${port + 1}` },
    ];
    for (const headers of rebinding) {
      expectRefusal(await send(port, { headers: { ...MCP_HEADERS, ...headers }, body: callNote() }), 403);
    }
    expect(calls).toEqual([]);
  });

  it('serves loopback names with the right port, with or without a loopback Origin', async () => {
    const { server, calls } = await start();
    const loopback: Record<string, string>[] = [{ host: `127.0.0.1:${server.port}` }, { host: `localhost:${server.port}`, origin: 'http://localhost:5173' }];
    for (const headers of loopback) {
      const answer = await send(server.port, { headers: { ...MCP_HEADERS, ...headers }, body: callNote('ok') });
      expect(answer.status, answer.body).toBe(200);
    }
    expect(calls).toEqual(['ok', 'ok']);
  });

  it('serves allowlisted hosts and origins', async () => {
    const { server, calls } = await start({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    const answer = await send(server.port, {
      headers: { ...MCP_HEADERS, host: 'mcp.example.com', origin: 'https://app.example.com' },
      body: callNote('allowed'),
    });
    expect(answer.status, answer.body).toBe(200);
    expect(calls).toEqual(['allowed']);
  });

  it('lets the official client in through the URL it prints', async () => {
    const { server } = await start();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect((await client.callTool({ name: 'note', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: 'noted hi' }]);
    await client.close();
  });
});

describe('serveHttp: authentication', () => {
  it('answers 401 with WWW-Authenticate without the right bearer token, and serves with it', async () => {
    const { server, calls, host } = await start({ bearerToken: 'correct-horse-battery' });
    const missing = await send(server.port, { headers: { ...MCP_HEADERS, host }, body: callNote() });
    expectRefusal(missing, 401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer realm="toolwright"$/);
    const wrong = await send(server.port, { headers: { ...MCP_HEADERS, host, authorization: 'Bearer correct-horse-batterx' }, body: callNote() });
    expectRefusal(wrong, 401);
    expect(wrong.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(calls).toEqual([]);
    const right = await send(server.port, { headers: { ...MCP_HEADERS, host, authorization: 'Bearer correct-horse-battery' }, body: callNote('authorised') });
    expect(right.status).toBe(200);
    expect(calls).toEqual(['authorised']);
  });

  it('refuses to listen beyond loopback without authentication unless told to', async () => {
    await expect(start({ host: '0.0.0.0' })).rejects.toThrow(HttpServeError);
    await expect(start({ host: '0.0.0.0' })).rejects.toThrow(/--auth-token-env NAME.*--insecure-no-auth/);
    await expect(start({ host: '::' })).rejects.toThrow(/without authentication/);
    await expect(start({ host: 'example.com' })).rejects.toThrow(/without authentication/);
    const withToken = await start({ host: '0.0.0.0', bearerToken: 'tok' });
    expect(withToken.server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    await start({ host: '0.0.0.0', insecureNoAuth: true });
  });

  it('refuses bad options before it listens', async () => {
    for (const options of [
      { maxSessions: 1.5 },
      { sessionIdleTimeoutMs: 0 },
      { maxBodyBytes: -1 },
      { allowedOrigins: ['app.example.com'] },
      { allowedHosts: ['https://x.example'] },
      { bearerToken: 'two words' },
    ]) {
      await expect(start(options), JSON.stringify(options)).rejects.toThrow(HttpServeError);
    }
  });
});

describe('serveHttp: hostile requests', () => {
  it('answers an oversized body with 413 and a JSON-RPC error, not a reset connection', async () => {
    const { server, calls, host } = await start({ maxBodyBytes: 64 * 1024 });
    const huge = Buffer.alloc(8 * 1024 * 1024, 0x20);
    // declared length, no Expect: the client keeps writing while the server answers
    expectRefusal(await send(server.port, { headers: { ...MCP_HEADERS, host }, body: huge }), 413);
    // chunked, so the size is found while reading
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: server.port, method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, 'transfer-encoding': 'chunked' }, agent: false },
        (response) => {
          let body = '';
          response.on('data', (c: Buffer) => {
            body += c.toString();
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: JSON.parse(body) }));
        },
      );
      request.on('error', reject);
      for (let i = 0; i < 64; i++) request.write(Buffer.alloc(64 * 1024, 0x20));
      request.end();
    });
    expectRefusal(chunked, 413);
    // fetch (undici) too
    const fetched = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: huge });
    expect(fetched.status).toBe(413);
    expect(await fetched.json()).toMatchObject({ error: { message: expect.stringContaining('larger than the limit of 65536 bytes') } });
    // Expect: 100-continue is answered before the body is sent
    expectRefusal(await send(server.port, { headers: { ...MCP_HEADERS, host, expect: '100-continue', 'content-length': huge.length }, body: huge }), 413);
    expect(calls).toEqual([]);
    expect((await send(server.port, { headers: { ...MCP_HEADERS, host }, body: callNote('after') })).status).toBe(200);
  });

  it('answers a body declared far over the limit with 413 at once, without waiting for it', async () => {
    const { server, calls, host } = await start({ maxBodyBytes: 64 * 1024 });
    const elapsed = stopwatch();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () =>
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 99999999999\r\n\r\n{`,
        ),
      );
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n') && received.includes('}')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    // Well under the 10 s a drain may take: the declared size alone decides.
    expect(elapsed()).toBeLessThan(9_000);
    expect(calls).toEqual([]);
  });

  it.for([
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['multipart/form-data; boundary=x', 415],
    ['text/plain; a=application/json', 415],
    ['', 415],
    ['application/json; charset=utf-8', 200],
    ['Application/JSON', 200],
  ] as const)('answers the content type %j with %i', async ([type, status]) => {
    const { server, host } = await start();
    const answer = await send(server.port, { headers: { accept: MCP_HEADERS.accept, host, ...(type ? { 'content-type': type } : {}) }, body: callNote() });
    if (status === 200) expect(answer.status).toBe(200);
    else expectRefusal(answer, status);
  });

  it.for(['{', 'not json', '', '\u0000', '{"jsonrpc":"2.0",', '[1,2'])('answers the body %j with 400 and a parse error', async (body) => {
    const { server, host } = await start();
    const answer = await send(server.port, { headers: { ...MCP_HEADERS, host }, body });
    expectRefusal(answer, 400);
    expect(answer.json?.error?.code).toBe(-32700);
  });

  it.for(['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'])('answers %s with 405 and Allow', async (method) => {
    for (const sessions of [false, true]) {
      const { server, host } = await start({ sessions });
      const answer = await send(server.port, {
        method,
        headers: { ...MCP_HEADERS, host },
        body: method === 'HEAD' || method === 'OPTIONS' ? undefined : callNote(),
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe(sessions ? 'POST, GET, DELETE' : 'POST');
      if (method !== 'HEAD') expectRefusal(answer, 405);
    }
  });

  it('answers other paths with 404, and the health check without credentials', async () => {
    const { server, host } = await start({ bearerToken: 'tok' });
    expectRefusal(await send(server.port, { path: '/other', headers: { ...MCP_HEADERS, host, authorization: 'Bearer tok' }, body: callNote() }), 404);
    expect((await send(server.port, { method: 'GET', path: '/healthz' })).body).toBe('ok');
  });

  it('answers huge headers with 431', async () => {
    const { server, host } = await start();
    const answer = await send(server.port, { headers: { ...MCP_HEADERS, host, 'x-padding': 'a'.repeat(64 * 1024) }, body: callNote() });
    expect(answer.status).toBe(431);
    expect(answer.json).toMatchObject({ error: { message: 'the request headers are too large' } });
  });

  it('answers garbage with 400 and gives up on a client that sends too slowly', async () => {
    const { server, calls } = await start({ requestTimeoutMs: 300 });
    expect(await rawExchange(server.port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    const elapsed = stopwatch();
    const slow = await rawExchange(
      server.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
    );
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expect(elapsed()).toBeLessThan(5000);
    const headersOnly = await rawExchange(server.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    expect(headersOnly).toMatch(/^HTTP\/1\.1 408 /);
    expect(calls).toEqual([]);
  });
});

/** Writes `text` on a raw connection and returns everything the server sends until it closes. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
    }, 10_000).unref();
  });
}

describe('serveHttp: sessions', () => {
  async function initialize(port: number, host: string): Promise<string> {
    const answer = await send(port, { headers: { ...MCP_HEADERS, host }, body: INITIALIZE });
    expect(answer.status, answer.body).toBe(200);
    return answer.headers['mcp-session-id'] as string;
  }
  const list = (port: number, host: string, session: string) =>
    send(port, {
      headers: { ...MCP_HEADERS, host, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });

  it('closes a session its client left idle', async () => {
    const { server, host } = await start({ sessions: true, sessionIdleTimeoutMs: 200 });
    const session = await initialize(server.port, host);
    expect((await list(server.port, host, session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const expired = await list(server.port, host, session);
    expectRefusal(expired, 404);
  });

  it('at the cap, evicts the least recently used idle session, and refuses with 503 when all are busy', async () => {
    const { server, host, waiting } = await start({ sessions: true, maxSessions: 2 });
    const [a, b] = [await initialize(server.port, host), await initialize(server.port, host)];
    expect((await list(server.port, host, a)).status).toBe(200); // b is now the least recently used
    const c = await initialize(server.port, host);
    expectRefusal(await list(server.port, host, b), 404);
    expect((await list(server.port, host, a)).status).toBe(200);
    expect((await list(server.port, host, c)).status).toBe(200);
    // both sessions run a call that does not end yet
    const held = [a, c].map((session) =>
      send(server.port, {
        headers: { ...MCP_HEADERS, host, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wait', arguments: { text: 'x' } } }),
      }),
    );
    await expect.poll(() => waiting.length).toBe(2);
    const refused = await send(server.port, { headers: { ...MCP_HEADERS, host }, body: INITIALIZE });
    expectRefusal(refused, 503);
    expect(refused.headers['retry-after']).toBe('5');
    for (const release of waiting) release();
    await Promise.all(held);
    expect(await initialize(server.port, host)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tells onSessionClosed listeners of each session that ends: deleted by its client, or idle', async () => {
    const { server, tools, host } = await start({ sessions: true, sessionIdleTimeoutMs: 300 });
    const closed: string[] = [];
    tools.onSessionClosed((id) => closed.push(id));
    const [deleted, idle, kept] = [await initialize(server.port, host), await initialize(server.port, host), await initialize(server.port, host)];
    const bye = await send(server.port, { method: 'DELETE', headers: { host, 'mcp-session-id': deleted, 'mcp-protocol-version': '2025-06-18' } });
    expect(bye.status, bye.body).toBe(200);
    expect(closed).toEqual([deleted]);
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await list(server.port, host, kept)).status).toBe(200);
    }
    await expect.poll(() => closed).toEqual([deleted, idle]);
  });

  it('frees the room of an initialize the transport refused', async () => {
    const { server, host } = await start({ sessions: true, maxSessions: 1 });
    for (let i = 0; i < 3; i++) {
      const refused = await send(server.port, { headers: { 'content-type': 'application/json', accept: 'application/json', host }, body: INITIALIZE });
      expect(refused.status).toBe(406);
    }
    const session = await initialize(server.port, host);
    expect((await list(server.port, host, session)).status).toBe(200);
  });
});

describe('the repeated-call guard over HTTP (found by a review)', () => {
  const deny = { doomLoop: { action: 'deny' as const } };
  async function clientOf(url: string, token?: string) {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined),
    );
    return client;
  }
  const refused = async (client: Client) => {
    const result = (await client.callTool({ name: 'note', arguments: { text: 'same' } })) as { isError?: boolean };
    return result.isError === true;
  };

  it("lets no stateless client's repeats count against another's calls, where the clients cannot be told apart", async () => {
    const { server } = await start({}, deny);
    const [a, b] = [await clientOf(server.url), await clientOf(server.url)];
    for (let i = 0; i < 4; i++) expect(await refused(a)).toBe(false);
    expect(await refused(b)).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps each session's repeats its own", async () => {
    const { server } = await start({ sessions: true }, deny);
    const [a, b] = [await clientOf(server.url), await clientOf(server.url)];
    for (let i = 0; i < 3; i++) expect(await refused(a)).toBe(false);
    expect(await refused(a)).toBe(true);
    expect(await refused(b)).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('compares the calls of the holders of one bearer token together (one identity), or every call with per: executor', async () => {
    const { server } = await start({ bearerToken: 'tok' }, deny);
    const [a, b] = [await clientOf(server.url, 'tok'), await clientOf(server.url, 'tok')];
    for (let i = 0; i < 3; i++) expect(await refused(a)).toBe(false);
    expect(await refused(b)).toBe(true);
    await Promise.all([a.close(), b.close()]);
    const shared = await start({}, { doomLoop: { action: 'deny', per: 'executor' } });
    const [c, d] = [await clientOf(shared.server.url), await clientOf(shared.server.url)];
    for (let i = 0; i < 3; i++) expect(await refused(c)).toBe(false);
    expect(await refused(d)).toBe(true);
    await Promise.all([c.close(), d.close()]);
  });
});
