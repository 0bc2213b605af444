import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { StdioTransport } from './stdio-transport.js';
import type { McpToolServer } from './tool-server.js';

/**
 * Serves over stdio (the host starts this process and talks on its stdin/stdout), in the era the client opens with:
 * `initialize` (2025-11-25) or a request carrying its protocol version in `_meta` (2026-07-28). A message over the
 * size limit is answered with an error and skipped; serving goes on (`StdioTransport`).
 */
export async function serveStdio(tools: McpToolServer): Promise<{ close(): Promise<void> }> {
  // One client per process: its repeated calls are compared whatever the era.
  const repeatScope = `stdio-${process.pid}`;
  const handle = serveBothEras(({ era }) => tools.createServer({ era, repeatScope }), { transport: new StdioTransport() });
  return { close: () => handle.close() };
}
