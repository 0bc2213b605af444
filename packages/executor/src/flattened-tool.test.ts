import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { ToolRegistry } from '@toolwright/registry';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { ToolExecutor } from './tool-executor.js';
import { defineTool } from './test-support/declare-tool.js';

/** The declaration the transformer generates for a flattened firecrawl-style `scrape(options: ScrapeOptions)`. */
const FIXTURE = path.resolve(__dirname, '../../transformer/fixtures/mcp-servers/firecrawl-scrape/expected.json');
const [declaration] = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as ToolDeclaration[];

function setup() {
  const received: unknown[][] = [];
  const scrape = defineTool(async (...args: unknown[]) => {
    received.push(args);
    return 'page';
  }, declaration!);
  const registry = new ToolRegistry();
  registry.register(scrape);
  return { received, executor: new ToolExecutor({ registry, audit: new MemoryAuditSink() }) };
}

const call = (args: unknown) => ({ id: 'call_1', name: 'firecrawl_scrape', arguments: JSON.stringify(args) });

describe('a flattened tool through the executor', () => {
  it("is declared with its options object's properties as arguments", () => {
    expect(declaration!.argumentPassing).toBe('object');
    expect(declaration!.parameters.required).toEqual(['url']);
    expect(declaration!.parameterOrder.slice(0, 3)).toEqual(['url', 'formats', 'onlyMainContent']);
  });

  it('validates the arguments and calls the function with the one object built from them', async () => {
    const { executor, received } = setup();
    const args = { formats: ['markdown'], url: 'https://example.com', location: { country: 'FR' } };
    const result = await executor.executeToolCall(call(args));
    expect(result).toMatchObject({ status: 'completed', output: 'page' });
    expect(received).toEqual([[{ url: 'https://example.com', formats: ['markdown'], location: { country: 'FR' } }]]);
  });

  it('refuses arguments nested under the parameter name, and never calls the function', async () => {
    const { executor, received } = setup();
    const result = await executor.executeToolCall(call({ options: { url: 'https://example.com' } }));
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_arguments' } });
    expect(received).toEqual([]);
  });
});
