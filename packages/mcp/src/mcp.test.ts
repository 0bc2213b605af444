import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/client';
import { ToolRegistry } from '@toolwright/registry';
import { MemoryAuditSink, ToolExecutor, loadPolicy } from '@toolwright/executor';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { McpToolServer } from './tool-server.js';
import { importMcpTools } from './import-tools.js';

function declaration(name: string, tier: ToolDeclaration['metadata']['tier'] = 'read-only'): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder: ['text'],
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    returns: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'], additionalProperties: false },
    metadata: {
      tier,
      timeoutMs: 5000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'pure',
      resources: { timeoutMs: 5000 },
      parallel: tier === 'read-only',
      tags: [],
    },
  };
}

async function connected(registry: ToolRegistry) {
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink() } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.createServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { tools, client };
}

/** A v2 client (what `importMcpTools` takes), on a server of either era. */
async function connectedV2(registry: ToolRegistry) {
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink() } });
  const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair();
  await tools.createServer().connect(serverSide);
  const client = new ClientV2({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { tools, client };
}

describe('McpToolServer', () => {
  it('notifies tools/list_changed when the registry changes', async () => {
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async (text: string) => ({ echoed: text }), declaration('echo')));
    const { client } = await connected(registry);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    registry.register(attachToolDeclaration(async (text: string) => ({ echoed: text.toUpperCase() }), declaration('shout')));
    await expect.poll(() => changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'shout']);
    await client.close();
  });
});

describe('importMcpTools', () => {
  it('registers remote tools that run through the local executor, side-effecting unless trusted', async () => {
    const remote = new ToolRegistry();
    remote.register(attachToolDeclaration(async (text: string) => ({ echoed: text }), declaration('echo')));
    const { client } = await connectedV2(remote);
    const local = new ToolRegistry();
    const imported = await importMcpTools(client, local, { prefix: 'remote_' });
    expect(imported.map((t) => t.declaration.name)).toEqual(['remote_echo']);
    expect(imported[0]!.declaration.metadata.tier).toBe('side-effecting'); // the remote said read-only: a hint, not trust
    const audit = new MemoryAuditSink();
    const executor = new ToolExecutor({
      registry: local,
      audit,
      policy: loadPolicy({ rules: [{ deny: 'remote_*(text=*secret*)', reason: 'no secrets to remote servers' }] }),
    });
    const ok = await executor.executeToolCall({ id: 'c1', name: 'remote_echo', arguments: '{"text":"hi"}' });
    expect(ok).toMatchObject({ status: 'completed', output: { echoed: 'hi' } });
    const invalid = await executor.executeToolCall({ id: 'c2', name: 'remote_echo', arguments: '{"text":5}' });
    expect(invalid.status === 'error' && invalid.error.code).toBe('invalid_arguments');
    const denied = await executor.executeToolCall({ id: 'c3', name: 'remote_echo', arguments: '{"text":"my secret"}' });
    expect(denied.status === 'error' && denied.error).toMatchObject({ code: 'policy_denied', reason: 'no secrets to remote servers' });
    expect(audit.records.filter((r) => r.type === 'ToolCallCompleted')).toHaveLength(1);
    const trusted = await importMcpTools(client, new ToolRegistry(), { tier: (tool) => (tool.annotations?.readOnlyHint ? 'read-only' : 'side-effecting') });
    expect(trusted[0]!.declaration.metadata.tier).toBe('read-only');
    await client.close();
  });

  it("reports a remote failure as the tool's error", async () => {
    const remote = new ToolRegistry();
    remote.register(
      attachToolDeclaration(async () => {
        throw new Error('remote exploded');
      }, declaration('boom')),
    );
    const { client } = await connectedV2(remote);
    const local = new ToolRegistry();
    await importMcpTools(client, local);
    const result = await new ToolExecutor({ registry: local, audit: new MemoryAuditSink() }).executeToolCall({
      id: 'c',
      name: 'boom',
      arguments: '{"text":"x"}',
    });
    expect(result.status).toBe('error');
    expect(result.content).toContain('remote exploded');
    await client.close();
  });

  it('reads a remote result as its text blocks, each other block marked by its type', async () => {
    const answers = [
      {
        content: [
          { type: 'text', text: 'a photo:' },
          { type: 'image', data: '', mimeType: 'image/png' },
        ],
      },
      {
        isError: true,
        content: [
          { type: 'audio', data: '', mimeType: 'audio/wav' },
          { type: 'text', text: 'then the camera failed' },
        ],
      },
    ];
    const client = {
      listTools: async () => ({ tools: [{ name: 'snap', inputSchema: { type: 'object', properties: {} } }] }),
      getServerVersion: () => ({ name: 'camera', version: '1.0.0' }),
      callTool: async () => answers.shift(),
    } as unknown as ClientV2;
    const [snap] = await importMcpTools(client, new ToolRegistry());
    await expect(snap!.invoke({})).resolves.toBe('a photo:\n[image]');
    await expect(snap!.invoke({})).rejects.toThrow(/^\[audio\]\nthen the camera failed$/);
  });
});
