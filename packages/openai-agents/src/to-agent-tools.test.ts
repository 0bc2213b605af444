import { describe, expect, it } from 'vitest';
import { RunContext } from '@openai/agents';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { content, image } from '@toolwright/tool';
import { toAgentTools } from './to-agent-tools.js';

// What the model is given of a call through the Agents SDK: the executor's text, or — for a tool returning content
// blocks — the SDK's structured output, images as images.

const snapshot: ToolDeclaration = {
  name: 'snapshot',
  description: 'Takes a snapshot.',
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  parameterOrder: [],
  returnsContent: true,
  metadata: {
    tier: 'read-only',
    timeoutMs: 5000,
    sideEffects: [],
    capabilities: [],
    determinism: 'maybe',
    resources: { timeoutMs: 5000 },
    parallel: true,
    tags: [],
  },
};

describe('toAgentTools', () => {
  it("returns a content result's images as the SDK's image output and its text as text", async () => {
    const registry = new ToolRegistry();
    const png = new Uint8Array([137, 80, 78, 71]);
    registry.register(attachToolDeclaration(async () => content('The page:', image(png, 'image/png')), snapshot));
    const [tool] = toAgentTools(new ToolExecutor({ registry, audit: new MemoryAuditSink() }));
    const output = await tool!.invoke(new RunContext(), '{}', { toolCall: { callId: 'c1' } } as never);
    expect(output).toEqual([
      { type: 'text', text: 'The page:' },
      { type: 'image', image: { data: Buffer.from(png).toString('base64'), mediaType: 'image/png' } },
    ]);
  });

  it('sends a strict: false tool with its own schema and its arguments as they come; defer and callers as the SDK options', async () => {
    const registry = new ToolRegistry();
    const seen: unknown[] = [];
    const note: ToolDeclaration = {
      name: 'note',
      description: 'Notes a value.',
      parameters: { type: 'object', properties: { value: {}, tag: { type: 'string' } }, required: ['value'], additionalProperties: false },
      parameterOrder: ['value', 'tag'],
      metadata: { ...snapshot.metadata, strict: false, defer: true, callers: ['direct', 'programmatic'] },
    };
    registry.register(attachToolDeclaration(async (value: unknown) => (seen.push(value), 'noted'), note));
    registry.register(attachToolDeclaration(async (value: unknown) => (seen.push(value), 'kept'), { ...note, name: 'keep', metadata: snapshot.metadata }));
    const tools = toAgentTools(new ToolExecutor({ registry, audit: new MemoryAuditSink() }));
    const loose = tools.find((t) => t.name === 'note');
    const strict = tools.find((t) => t.name === 'keep');
    expect(loose).toMatchObject({ strict: false, deferLoading: true, allowedCallers: ['direct', 'programmatic'], parameters: note.parameters });
    expect(strict).toMatchObject({ strict: true, deferLoading: false, parameters: { required: ['value', 'tag'] } });
    expect(strict).not.toHaveProperty('allowedCallers');
    // The loose tool's "value" is any JSON and arrives as it was sent: a string stays a string (strict mode would parse it).
    await loose!.invoke(new RunContext(), '{"value":"[1]"}', { toolCall: { callId: 'c2' } } as never);
    await strict!.invoke(new RunContext(), '{"value":"[1]","tag":null}', { toolCall: { callId: 'c3' } } as never);
    expect(seen).toEqual(['[1]', [1]]);
  });
});
