import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolServer } from './tool-server.js';

/** Serves over stdio (the host starts this process and talks on its stdin/stdout). */
export async function serveStdio(tools: McpToolServer): Promise<{ close(): Promise<void> }> {
  const server = tools.createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}

export interface HttpServeOptions {
  port?: number;
  host?: string;
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * Stateful sessions (`Mcp-Session-Id`): the server remembers each client's capabilities, so it can
   * ask for approvals by elicitation and route cancellations; a load balancer then needs session
   * affinity. Default false: stateless, for any number of processes behind any balancer.
   */
  sessions?: boolean;
}

/**
 * Serves Streamable HTTP. Stateless by default: every POST gets its own protocol server and transport,
 * so any number of processes can sit behind a load balancer (no session affinity); audit records
 * carry globally unique call ids, so per-process logs merge by id. A stateless server cannot ask a
 * client's user (it never saw the client's capabilities) nor receive a cancellation sent in another
 * request, except by the connection closing: `sessions: true` gives both, at the price of affinity.
 */
export async function serveHttp(tools: McpToolServer, options: HttpServeOptions = {}): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const endpoint = options.path ?? '/mcp';
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (url.pathname !== endpoint) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (req.method !== 'POST' && !options.sessions) {
      return void res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'This server is stateless: only POST is supported.' }, id: null }));
    }
    if (options.sessions) {
      handleSession(tools, sessions, req, res, maxBody);
      return;
    }
    readJson(req, maxBody).then(async (body) => {
      const server = tools.createServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => { void transport.close(); void server.close(); });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    }, (error: Error) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: error.message }, id: null }));
    }).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: error.message }, id: null }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${endpoint}`, port,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await new Promise<void>((resolve) => { httpServer.closeAllConnections(); httpServer.close(() => resolve()); });
    },
  };
}

/** Stateful mode: a transport (and protocol server) per session, found by its `Mcp-Session-Id`. */
function handleSession(tools: McpToolServer, sessions: Map<string, StreamableHTTPServerTransport>, req: http.IncomingMessage, res: http.ServerResponse, maxBody: number): void {
  const id = req.headers['mcp-session-id'];
  const existing = typeof id === 'string' ? sessions.get(id) : undefined;
  const fail = (status: number, message: string) => {
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  if (req.method !== 'POST') {
    if (!existing) return fail(400, 'unknown or missing Mcp-Session-Id');
    existing.handleRequest(req, res).catch((error: Error) => fail(500, error.message));
    return;
  }
  readJson(req, maxBody).then(async (body) => {
    if (existing) return existing.handleRequest(req, res, body);
    if (typeof id === 'string') return fail(404, `session ${id} is not known here (expired, or served by another process)`);
    if (!isInitializeRequest(body)) return fail(400, 'the first request of a session must be initialize');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => { sessions.set(sessionId, transport); },
    });
    const server = tools.createServer();
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }, (error: Error) => fail(400, error.message)).catch((error: Error) => fail(500, error.message));
}

function readJson(req: http.IncomingMessage, maxBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error(`the request body is larger than ${maxBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the request body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}
