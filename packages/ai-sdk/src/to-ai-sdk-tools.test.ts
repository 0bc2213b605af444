import { describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { content, image, resourceLink } from '@toolwright/tool';
import { toAISdkTools } from './to-ai-sdk-tools.js';

// What the model is given of a call through the AI SDK: the executor's text, or — for a tool returning content
// blocks — its images and sounds as files and the rest as text.

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

describe('toAISdkTools', () => {
  it("gives the model a content result's images as files and its other blocks as text", async () => {
    const registry = new ToolRegistry();
    const png = new Uint8Array([137, 80, 78, 71]);
    registry.register(
      attachToolDeclaration(async () => content('The page:', image(png, 'image/png'), resourceLink({ uri: 'https://example.com', name: 'home' })), snapshot),
    );
    const tools = toAISdkTools(new ToolExecutor({ registry, audit: new MemoryAuditSink() }));
    const tool = tools.snapshot!;
    const output = await tool.execute!({}, { toolCallId: 't1', messages: [], context: undefined });
    expect(await tool.toModelOutput!({ toolCallId: 't1', input: {}, output })).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'The page:' },
        { type: 'file', data: { type: 'data', data: Buffer.from(png).toString('base64') }, mediaType: 'image/png' },
        { type: 'text', text: '[link: home <https://example.com>]' },
      ],
    });
  });
});

describe('per-tool provider settings', () => {
  const noop = async () => content('ok');
  it('carries @defer, @example and strict: false as deferLoading, inputExamples and strict', () => {
    const registry = new ToolRegistry();
    const settings = { ...snapshot.metadata, defer: true as const, examples: [{ path: 'README.md' }, { path: 'src/a.ts' }], strict: false as const };
    registry.register(attachToolDeclaration(noop, { ...snapshot, name: 'configured', metadata: settings }));
    registry.register(attachToolDeclaration(noop, snapshot));
    const tools = toAISdkTools(new ToolExecutor({ registry, audit: new MemoryAuditSink() }));
    expect(tools.configured).toMatchObject({
      deferLoading: true,
      strict: false,
      inputExamples: [{ input: { path: 'README.md' } }, { input: { path: 'src/a.ts' } }],
    });
    // A tool that declares none of them leaves each to the SDK and the provider.
    for (const key of ['deferLoading', 'strict', 'inputExamples']) expect(tools.snapshot).not.toHaveProperty(key);
  });
});
