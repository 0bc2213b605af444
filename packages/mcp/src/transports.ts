import { StdioTransport } from './stdio-transport.js';
import type { McpToolServer } from './tool-server.js';

/**
 * Serves over stdio (the host starts this process and talks on its stdin/stdout). A message over
 * the size limit is answered with an error and skipped; serving goes on (`StdioTransport`).
 */
export async function serveStdio(tools: McpToolServer): Promise<{ close(): Promise<void> }> {
  const server = tools.createServer();
  const transport = new StdioTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}
