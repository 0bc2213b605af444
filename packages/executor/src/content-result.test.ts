import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { JsonSchema } from '@toolwright/schema';
import { audio, content, embeddedResource, image, resourceLink } from '@toolwright/tool';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { declaration, defineTool } from './test-support/declare-tool.js';

// A tool that returns content blocks (`content(...)`): the result carries the blocks, checked, and the model reads
// their text with a line for each image, sound, link or resource.

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

function run(output: () => unknown, returnsContent = true) {
  const registry = new ToolRegistry();
  const base = declaration('snapshot', {}, { metadata: { tier: 'read-only' } });
  registry.register(defineTool(async () => output(), returnsContent ? { ...base, returnsContent: true } : base));
  return new ToolExecutor({ registry, audit: new MemoryAuditSink() }).executeToolCall({ id: 'c', name: 'snapshot', arguments: {} });
}

describe('a content result', () => {
  it('carries its blocks, and words each for a model that reads text', async () => {
    const result = await run(() =>
      content(
        'The page as it looks:',
        image(PNG, 'image/png'),
        audio(new Uint8Array(3000), 'audio/wav'),
        resourceLink({ uri: 'file:///work/report.pdf', name: 'report.pdf', description: 'the full report' }),
        embeddedResource({ uri: 'file:///work/notes.txt', mimeType: 'text/plain', text: 'alpha' }),
      ),
    );
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.blocks?.map((block) => block.type)).toEqual(['text', 'image', 'audio', 'resource_link', 'resource']);
    expect(result.blocks?.[1]).toEqual({ type: 'image', data: Buffer.from(PNG).toString('base64'), mimeType: 'image/png' });
    expect(result.content).toBe(
      'The page as it looks:\n[image image/png, 8 B]\n[audio audio/wav, 2.9 KB]\n[link: report.pdf <file:///work/report.pdf> — the full report]\n[resource file:///work/notes.txt]\nalpha',
    );
  });

  it('is refused, saying where, when a block is not one a client can show', async () => {
    const cases: [unknown, string][] = [
      [content({ type: 'image', data: 'not base64!', mimeType: 'image/png' }), '$.blocks[0].data'],
      [content({ type: 'image', data: 'iVBORw==', mimeType: 'audio/wav' }), '$.blocks[0].mimeType'],
      [content({ type: 'video', data: '' } as never), '$.blocks[0].type'],
      [content({ type: 'resource_link', uri: 'no scheme', name: 'x' }), '$.blocks[0].uri'],
      [content({ type: 'resource', resource: { uri: 'file:///a' } } as never), '$.blocks[0].resource'],
    ];
    for (const [output, path] of cases) {
      const result = await run(() => output);
      expect(result.status).toBe('error');
      if (result.status === 'error') expect(JSON.stringify(result.error)).toContain(path);
    }
  });

  it('is what a tool declared to return content must return', async () => {
    const result = await run(() => ({ echoed: 'data' }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_output' } });
  });

  it('is read as data by a tool that declares a result schema', async () => {
    const registry = new ToolRegistry();
    const base = declaration('snapshot', {}, { metadata: { tier: 'read-only' } });
    registry.register(defineTool(async () => content('hi'), { ...base, returns: { type: 'string' } }));
    const result = await new ToolExecutor({ registry, audit: new MemoryAuditSink() }).executeToolCall({ id: 'c', name: 'snapshot', arguments: {} });
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_output' } });
    // With no schema of its own, returning content() is a content result.
    const plain = await run(() => content('hi'), false);
    expect(plain).toMatchObject({ status: 'completed', content: 'hi', blocks: [{ type: 'text', text: 'hi' }] });
  });
});

describe('a tool that returns data or content', () => {
  const dataOrContent = (output: () => unknown) => {
    const registry = new ToolRegistry();
    const base = declaration('open_file', {}, { metadata: { tier: 'read-only' } });
    const returns: JsonSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
    registry.add({ declaration: { ...base, returns, returnsContent: true }, invoke: async () => output(), renderForModel: () => 'rendered data' });
    return new ToolExecutor({ registry, audit: new MemoryAuditSink() }).executeToolCall({ id: 'c', name: 'open_file', arguments: {} });
  };

  it('checks its data against the result schema and words it with its renderer', async () => {
    expect(await dataOrContent(() => ({ text: 'hi' }))).toMatchObject({ status: 'completed', content: 'rendered data', output: { text: 'hi' } });
    expect(await dataOrContent(() => ({ txt: 'hi' }))).toMatchObject({ status: 'error', error: { code: 'invalid_output' } });
  });

  it('carries its content blocks, worded as blocks (not by the data renderer)', async () => {
    const result = await dataOrContent(() => content(image(PNG, 'image/png')));
    expect(result).toMatchObject({ status: 'completed', content: '[image image/png, 8 B]', blocks: [{ type: 'image', mimeType: 'image/png' }] });
  });
});
