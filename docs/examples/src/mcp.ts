import { tool } from '@toolwright/tool';
import { ToolRegistry } from '@toolwright/registry';
import { McpToolServer } from '@toolwright/mcp';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

/**
 * Greets someone.
 * @param name Who to greet.
 */
export const greet = tool(async function greet(name: string) {
  return { greeting: `Hello, ${name}!` };
});

async function main() {
  const registry = new ToolRegistry();
  registry.register(greet);
  // In production: serveStdio(tools) or serveHttp(tools, { port }) — or `toolwright serve`.
  const tools = new McpToolServer({ registry });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.createServer().connect(serverSide);
  const client = new Client({ name: 'docs', version: '1.0.0' });
  await client.connect(clientSide);
  console.log((await client.listTools()).tools.map((t) => t.name).join(','));
  const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  console.log(JSON.stringify(result.structuredContent));
  await client.close();
}

void main();
