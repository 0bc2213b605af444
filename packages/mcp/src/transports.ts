import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpToolServer } from './tool-server.js';

/** Serves over stdio (the host starts this process and talks on its stdin/stdout). */
export async function serveStdio(tools: McpToolServer): Promise<{ close(): Promise<void> }> {
  const server = tools.createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}
