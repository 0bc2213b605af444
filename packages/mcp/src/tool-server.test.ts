import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryAuditSink, loadPolicy } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { getToolContext } from '@toolwright/tool';
import { McpToolServer } from './tool-server.js';
import { hasRawControls } from './test-support/raw-controls.js';

/** Every kind of character a terminal would act on, as a hostile tool output would carry them. */
const HOSTILE = '\u001b[2J\u001b]52;c;cHduZWQ=\u0007\u009b31m\r\u0008\u202Egnp.exe\u2066x\u2069\u0000';

function declaration(name: string, returns: 'object' | 'string', tier: ToolDeclaration['metadata']['tier'] = 'read-only'): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool ${HOSTILE}.`,
    parameterOrder: ['text'],
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    returns:
      returns === 'object'
        ? { type: 'object', properties: { echoed: { type: 'string' }, list: { type: 'array', items: { type: 'string' } } }, required: ['echoed'] }
        : { type: 'string' },
    metadata: {
      tier,
      timeoutMs: 5000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'pure',
      resources: { timeoutMs: 5000 },
      parallel: false,
      tags: [],
    },
  };
}

function hostileRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    attachToolDeclaration(
      async (text: string) => ({ echoed: `${HOSTILE}${text}`, list: [HOSTILE], [`key${HOSTILE}`]: HOSTILE }),
      declaration('structured', 'object'),
    ),
  );
  registry.register(attachToolDeclaration(async (text: string) => `${HOSTILE}${text}`, declaration('plain', 'string')));
  registry.register(
    attachToolDeclaration(
      async (text: string) => {
        throw new Error(`failed ${HOSTILE}${text}`);
      },
      declaration('boom', 'string'),
    ),
  );
  registry.register(
    attachToolDeclaration(
      async (text: string) => {
        getToolContext()?.progress({ progress: 1, total: 1, message: `step ${HOSTILE}` });
        return text;
      },
      declaration('progressing', 'string'),
    ),
  );
  registry.register(
    attachToolDeclaration(
      async (text: string) => {
        for (const progress of [0, 0.25, 0.5, 0.75, 1]) getToolContext()?.progress({ progress, total: 1 });
        getToolContext()?.progress({ progress: 0.5, message: 'went back' });
        getToolContext()?.progress({ message: 'a message alone' });
        return text;
      },
      declaration('fractions', 'string'),
    ),
  );
  registry.register(attachToolDeclaration(async (text: string) => text, declaration('guarded', 'string', 'side-effecting')));
  return registry;
}

async function connected(capabilities: ConstructorParameters<typeof Client>[1] = {}) {
  const tools = new McpToolServer({
    registry: hostileRegistry(),
    executor: { audit: new MemoryAuditSink(), policy: loadPolicy({ rules: [{ ask: 'guarded' }] }) },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: string[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = async (message, options) => {
    sent.push(JSON.stringify(message));
    return send(message, options);
  };
  await tools.createServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, capabilities);
  await client.connect(clientSide);
  return { client, sent };
}

/** Every string in a value, keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...strings(child)]);
}

describe(McpToolServer, () => {
  it.for([
    ['structured', false],
    ['plain', false],
    ['boom', true],
    ['progressing', false],
    ['no_such_tool\u001b[2J', true],
  ] as const)('never sends a raw terminal control in the result of %j', async ([name, isError]) => {
    const { client, sent } = await connected();
    const messages: string[] = [];
    const result = (await client.callTool({ name, arguments: { text: `arg${HOSTILE}` } }, undefined, {
      onprogress: (p) => {
        messages.push(p.message ?? '');
      },
    })) as CallToolResult;
    for (const text of [...strings(result), ...messages]) expect(hasRawControls(text), JSON.stringify(text)).toBe(false);
    for (const message of sent) expect(hasRawControls(strings(JSON.parse(message)).join('')), message).toBe(false);
    expect(strings(result).join('')).toContain('\\u001b');
    expect(result.isError ?? false).toBe(isError);
    await client.close();
  });

  it('keeps the structured result usable: same shape, escapes visible', async () => {
    const { client } = await connected();
    const result = (await client.callTool({ name: 'structured', arguments: { text: 'x' } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ echoed: expect.stringMatching(/^\\u001b\[2J.*x$/), list: [expect.stringContaining('\\u202egnp.exe')] });
    await client.close();
  });

  it('escapes tool descriptions and the approval prompt', async () => {
    const { client } = await connected({ capabilities: { elicitation: {} } });
    const prompts: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      prompts.push(request.params.message);
      return { action: 'accept', content: { decision: 'once' } };
    });
    const { tools } = await client.listTools();
    for (const tool of tools) expect(hasRawControls(`${tool.description}${tool.title ?? ''}`)).toBe(false);
    const result = (await client.callTool({ name: 'guarded', arguments: { text: `\u009b\u202e${HOSTILE}` } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(prompts).toHaveLength(1);
    expect(hasRawControls(prompts[0]!)).toBe(false);
    await client.close();
  });

  // Found by a review: 0.25/0.5/0.75/1 of 1 reached the client as 1, 2, 3, 4 of 1 (400 %).
  it("passes the tool's progress values through, and only makes them increase", async () => {
    const { client } = await connected();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await client.callTool({ name: 'fractions', arguments: { text: 'x' } }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(seen.slice(0, 5)).toEqual([0, 0.25, 0.5, 0.75, 1].map((progress) => ({ progress, total: 1 })));
    expect(seen.slice(5).map((p) => p.message)).toEqual(['went back', 'a message alone']);
    expect(seen[5]!.progress).toBeGreaterThan(1);
    expect(seen[6]!.progress).toBeGreaterThan(seen[5]!.progress);
    expect(seen[6]!.progress).toBeLessThan(1.001);
    await client.close();
  });

  // MCP's 2025 revisions want an object: an array or primitive result had no outputSchema and no structuredContent.
  it('gives a string result an outputSchema and structuredContent wrapped as { result }', async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'plain')!.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'string' } },
      required: ['result'],
      additionalProperties: false,
    });
    const result = (await client.callTool({ name: 'plain', arguments: { text: 'x' } })) as CallToolResult;
    expect(result.structuredContent).toEqual({ result: expect.stringMatching(/x$/) });
    await client.close();
  });
});
