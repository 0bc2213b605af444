import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { Reply } from './http-replies.js';
import type { SessionStore } from './session-store.js';
import type { McpToolServer } from './tool-server.js';

/** Stateful mode (2025-11-25 clients): a transport (and protocol server) per session, found by its `Mcp-Session-Id`. */
export async function serveSession(
  tools: McpToolServer,
  store: SessionStore<NodeStreamableHTTPServerTransport>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: unknown,
  reply: Reply,
): Promise<void> {
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string') {
    const existing = store.get(id);
    if (!existing) return reply(404, -32001, 'Session not found: it expired, was closed, or is served by another process; start a new one with initialize.');
    res.on('close', store.begin(id, req.method !== 'GET'));
    return existing.handleRequest(req, res, body);
  }
  if (req.method !== 'POST') return reply(400, -32000, 'Bad Request: missing Mcp-Session-Id header.');
  if (!isInitializeRequest(body)) return reply(400, -32600, 'Bad Request: the first request of a session must be initialize.');
  const reservation = store.reserve();
  if (!reservation) return reply(503, -32000, 'Service unavailable: every session is busy; try again shortly.', { 'retry-after': '5' });
  const server = tools.createServer();
  const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => reservation.fill(sessionId, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) {
      store.delete(transport.sessionId);
      tools.sessionClosed(transport.sessionId);
    }
    reservation.release();
    void server.close();
  };
  // An initialize the transport refused (e.g. a wrong Accept header) leaves no session: free its room.
  res.on('close', () => {
    reservation.release();
    if (transport.sessionId === undefined) void transport.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
