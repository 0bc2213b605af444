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
});
