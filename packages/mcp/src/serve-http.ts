import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isJsonContentType, isLegacyRequest } from '@modelcontextprotocol/server';
import { BearerAuth } from './bearer-auth.js';
import { HttpAccess, isLoopbackAddress } from './http-access.js';
import { HttpServeError } from './http-serve-error.js';
import { answerClientError, jsonRpcError, type Reply } from './http-replies.js';
import { drainRequest, readJsonBody } from './request-body.js';
import { serveSession } from './serve-session.js';
import { DEFAULT_SESSION_LIMITS, SessionStore } from './session-store.js';
import type { McpToolServer } from './tool-server.js';

export interface HttpServeOptions {
  port?: number;
  /** The address to listen on (default 127.0.0.1). Any other than loopback needs `bearerToken` or `insecureNoAuth`. */
  host?: string;
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Largest request body accepted, in bytes (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /**
   * Stateful sessions (`Mcp-Session-Id`): the server remembers each client's capabilities, so it can
   * ask for approvals by elicitation and route cancellations; a load balancer then needs session
   * affinity. Default false: stateless, for any number of processes behind any balancer.
   */
  sessions?: boolean;
  /** A session with no request in progress for this long is closed (default 10 minutes). */
  sessionIdleTimeoutMs?: number;
  /** Most live sessions (default 100); see `SessionStore` for what happens at the cap. */
  maxSessions?: number;
  /**
   * Host header values accepted besides `localhost`, `127.0.0.1` and `[::1]` with the server's port
   * (and the bound address, when it is a specific one): `name` (any port), `name:port`, or `*` (any).
   */
  allowedHosts?: readonly string[];
  /** Origins accepted besides loopback ones (`https://app.example.com`), or `*`; requests without Origin always pass. */
  allowedOrigins?: readonly string[];
  /** Requests must carry `Authorization: Bearer <token>`; compared in constant time. */
  bearerToken?: string;
  /** Listen on a non-loopback address without `bearerToken`: anyone who reaches the port can run tools. */
  insecureNoAuth?: boolean;
  /** Time a client has to send a whole request, headers and body (default 30 s); 408 after. */
  requestTimeoutMs?: number;
  /** Largest request header block (default 16 KiB); larger gets 431. */
  maxHeaderBytes?: number;
}

export interface HttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves Streamable HTTP, to 2026-07-28 clients (stateless by design: each request carries its protocol version and
 * capabilities, and an approval is asked with an `input_required` result the client answers by calling again) and to
 * 2025-11-25 ones. Stateless by default: every POST gets its own protocol server, so any number of processes can sit
 * behind a load balancer (no session affinity); audit records carry globally unique call ids, so per-process logs
 * merge by id. A stateless 2025 server cannot ask a client's user (it never saw the client's capabilities) nor
 * receive a cancellation sent in another request, except by the connection closing: `sessions: true` gives both to
 * 2025 clients, at the price of affinity.
 *
 * Every request to the endpoint passes, in order: Host and Origin (403; see `HttpAccess`), the bearer
 * token when one is set (401), the path (404), the method (405), then for POST the content type (415)
 * and the body's size (413) and syntax (400). Each refusal is a JSON-RPC error body.
 */
export async function serveHttp(tools: McpToolServer, options: HttpServeOptions = {}): Promise<HttpServer> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const maxBody = positive(options.maxBodyBytes ?? 4 * 1024 * 1024, 'maxBodyBytes');
  const requestTimeout = positive(options.requestTimeoutMs ?? 30_000, 'requestTimeoutMs');
  const maxHeaderSize = positive(options.maxHeaderBytes ?? 16 * 1024, 'maxHeaderBytes');
  const limits = {
    idleTimeoutMs: positive(options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_LIMITS.idleTimeoutMs, 'sessionIdleTimeoutMs'),
    maxSessions: positive(options.maxSessions ?? DEFAULT_SESSION_LIMITS.maxSessions, 'maxSessions', true),
  };
  if (!isLoopbackAddress(host) && options.bearerToken === undefined && !options.insecureNoAuth) {
    throw new HttpServeError(
      `refusing to listen on ${host} without authentication: anyone who can reach it could run the tools. ` +
        'Require a bearer token (toolwright serve --auth-token-env NAME), listen on 127.0.0.1, or accept the risk with --insecure-no-auth.',
    );
  }
  const auth = options.bearerToken === undefined ? undefined : new BearerAuth(options.bearerToken);
  const access = new HttpAccess({
    bindHost: host,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  });
  const store = options.sessions ? new SessionStore<NodeStreamableHTTPServerTransport>(limits) : undefined;
  // Requests with no session: every one gets a protocol server of its own, of the era it speaks (2025 ones only
  // where there are no sessions). The clients cannot be told apart but by the token (one for all who hold it);
  // without one the repeated-call guard leaves the calls alone.
  const handler = createMcpHandler(({ era }) => tools.createServer({ era, repeatScope: auth ? 'bearer-token' : false, oneClient: false }), {
    legacy: store ? 'reject' : 'stateless',
    maxRequestBodySize: maxBody,
  });
  const perRequest = toNodeHandler(handler);
  // A 2026-07-28 client hears of registry changes on its `subscriptions/listen` stream (its requests' servers live
  // for one request each, so they cannot tell it).
  const stopNotifying = tools.registry.onChange(() => handler.notify.toolsChanged());
  let port: number | undefined;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, expectsContinue = false): void => {
    const reply: Reply = (status, code, message, headers = {}) => {
      if (res.headersSent) return void res.end();
      // Without a 100 Continue the client never sends the body: close, or its next request would be read as one.
      const close = expectsContinue ? { connection: 'close' } : {};
      res.writeHead(status, { 'content-type': 'application/json', ...close, ...headers }).end(jsonRpcError(code, message));
    };
    route(req, res, reply, expectsContinue).catch((error: Error) => reply(500, -32603, `internal error: ${error.message}`));
  };

  const route = async (req: http.IncomingMessage, res: http.ServerResponse, reply: Reply, expectsContinue: boolean): Promise<void> => {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      return reply(400, -32000, 'Bad Request: the request target is not a valid path.');
    }
    if (pathname === '/healthz') {
      if (req.method === 'GET' || req.method === 'HEAD') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return reply(405, -32000, 'Method not allowed.', { allow: 'GET, HEAD' });
    }
    if (port === undefined) return reply(503, -32000, 'the server is starting');
    const refused = access.check(req.headers, port);
    if (refused) return reply(403, -32000, `Forbidden: ${refused}.`);
    if (auth) {
      const verdict = auth.check(req.headers.authorization);
      if (verdict !== 'ok') {
        const challenge = verdict === 'missing' ? 'Bearer realm="toolwright"' : 'Bearer realm="toolwright", error="invalid_token"';
        return reply(
          401,
          -32001,
          verdict === 'missing' ? 'Unauthorized: send Authorization: Bearer <token>.' : 'Unauthorized: the bearer token is not valid.',
          { 'www-authenticate': challenge },
        );
      }
    }
    if (pathname !== endpoint) return reply(404, -32000, `Not found: the MCP endpoint is ${endpoint}.`);
    const methods = store ? ['POST', 'GET', 'DELETE'] : ['POST'];
    if (!methods.includes(req.method ?? '')) {
      return reply(405, -32000, store ? 'Method not allowed.' : 'This server is stateless: only POST is supported.', { allow: methods.join(', ') });
    }
    let body: unknown;
    if (req.method === 'POST') {
      if (!isJsonContentType(req.headers['content-type'])) return reply(415, -32000, 'Unsupported Media Type: Content-Type must be application/json.');
      if (expectsContinue && !(Number(req.headers['content-length']) > maxBody)) res.writeContinue();
      const read = await readJsonBody(req, maxBody);
      if (!read.ok) {
        if (read.status === 413) await drainRequest(req, expectsContinue);
        return reply(read.status, read.code, read.message);
      }
      body = read.value;
    }
    // With sessions, a 2025 client's requests belong to its session; a 2026 client's carry everything with them.
    if (store && (await isLegacyRequest(headersOnly(req), body))) return serveSession(tools, store, req, res, body, reply);
    await perRequest(req, res, body);
  };

  const httpServer = http.createServer(
    {
      requestTimeout: requestTimeout,
      headersTimeout: requestTimeout,
      // Node checks the timeouts above on this interval (30 s by default, which would stretch a short timeout).
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
      maxHeaderSize,
    },
    (req, res) => handle(req, res),
  );
  httpServer.on('checkContinue', (req, res) => handle(req, res, true));
  httpServer.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket));
  try {
    port = await new Promise<number>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(options.port ?? 0, host, () => {
        httpServer.off('error', reject);
        resolve((httpServer.address() as AddressInfo).port);
      });
    });
  } catch (error) {
    stopNotifying();
    await handler.close();
    await store?.closeAll();
    throw error;
  }
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${endpoint}`,
    port,
    close: async () => {
      stopNotifying();
      await handler.close();
      await store?.closeAll();
      await new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      });
    },
  };
}

/** The request as the SDK's era test reads it: its method, URL and headers (the body is passed parsed). */
function headersOnly(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method ?? 'POST', headers });
}

function positive(value: number, name: string, integer = false): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new HttpServeError(`${name} must be a positive ${integer ? 'whole ' : ''}number, not ${value}`);
  return value;
}
