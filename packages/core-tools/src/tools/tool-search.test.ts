// tool_search as the model meets it: through the executor, over the core tools and a few more.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { fromFunction, ToolRegistry } from '@toolwright/registry';
import { registerCoreTools } from '../core-tools.js';
import { registerMetaTools } from '../meta-tools.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { renderToolSearch, type ToolSearchResult } from './tool-search.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-tool-search-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function setUp(maxOutputChars = 16 * 1024) {
  const registry = new ToolRegistry();
  registerCoreTools(registry, { workspace: new WorkspacePolicy({ root }) });
  registerMetaTools(registry);
  return { registry, executor: new ToolExecutor({ registry, audit: new MemoryAuditSink(), maxOutputChars }) };
}

const call = (executor: ToolExecutor, args: Record<string, unknown>) => executor.executeToolCall({ id: 'c1', name: 'tool_search', arguments: args });

describe('tool_search through the executor', () => {
  it('is a read-only, parallel meta tool', () => {
    const { metadata } = setUp().registry.get('tool_search')!.declaration;
    expect(metadata).toMatchObject({ tier: 'read-only', group: 'meta', parallel: true });
  });

  it.for([
    ['replace a string in a file', 'file_edit'],
    ['run a shell command', 'shell_exec'],
    ['fetch a URL', 'web_fetch'],
    ['file_read', 'file_read'],
  ])('finds %j: %s first, with its description and parameters', async ([query, expected]) => {
    const { registry, executor } = setUp();
    const result = await call(executor, { query });
    expect(result.status).toBe('completed');
    const output = (result as { output: ToolSearchResult }).output;
    const declaration = registry.get(expected!)!.declaration;
    expect(output.tools[0]).toEqual({ name: expected, description: declaration.description, parameters: declaration.parameters });
    expect(result.content.startsWith(`## ${expected}\n`)).toBe(true);
    expect(result.content).toContain(`parameters: ${JSON.stringify(declaration.parameters)}`);
  });

  it('returns at most `limit` tools and never itself', async () => {
    const { executor } = setUp();
    const result = await call(executor, { query: 'search tools files web', limit: 3 });
    const names = (result as { output: ToolSearchResult }).output.tools.map((t) => t.name);
    expect(names).toHaveLength(3);
    expect(names).not.toContain('tool_search');
    const self = await call(executor, { query: 'tool_search' });
    expect((self as { output: ToolSearchResult }).output.tools.map((t) => t.name)).not.toContain('tool_search');
  });

  it('finds a tool registered after its first search', async () => {
    const { registry, executor } = setUp();
    expect((await call(executor, { query: 'bill a customer' })).content).toBe('[no tools match "bill a customer"; try other words, or fewer of them]');
    const declaration = { ...registry.get('glob')!.declaration, name: 'create_invoice', description: 'Bills a customer for an order.' };
    registry.add(fromFunction(declaration, async () => 1));
    expect((await call(executor, { query: 'bill a customer' })).content).toMatch(/^## create_invoice\n/);
  });

  it('fits its list to the output budget and says what it left out', async () => {
    const budget = 1500;
    const { registry, executor } = setUp(budget);
    const result = await call(executor, { query: 'file', limit: 10 });
    const matching = registry.search('file', { limit: 11 }).filter((m) => m.name !== 'tool_search').length;
    expect(result.status).toBe('completed');
    expect(result.truncated).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(budget);
    const output = (result as { output: ToolSearchResult }).output;
    expect(output.omitted).toBeGreaterThan(0);
    expect(output.tools.length + output.omitted!).toBe(Math.min(matching, 10));
    expect(result.content).toMatch(/\n\[\d+ more matching tools did not fit; ask for fewer \(limit\) or a narrower query\]$/);
  });

  it.for([
    ['a blank query', { query: '   ' }, 'tool_failed'],
    ['an empty query', { query: '' }, 'invalid_arguments'],
    ['a query over 1,000 characters', { query: 'x'.repeat(1001) }, 'invalid_arguments'],
    ['a limit of 0', { query: 'file', limit: 0 }, 'invalid_arguments'],
  ])('refuses %s (%s)', async ([, args, code]) => {
    const result = await call(setUp().executor, args as Record<string, unknown>);
    expect(result.status).toBe('error');
    expect((result as { error: { code: string } }).error.code).toBe(code);
    if (code === 'tool_failed') {
      expect((result as { error: { errorCode?: string } }).error.errorCode).toBe('invalid_query');
      expect(result.content).toMatch(/empty/);
    }
  });

  it('finds nothing for a query of stop words, and says so', async () => {
    const result = await call(setUp().executor, { query: 'the of and to' });
    expect((result as { output: ToolSearchResult }).output.tools).toEqual([]);
  });
});

describe(renderToolSearch, () => {
  it('keeps a description to one line and quotes a hostile one', () => {
    const text = renderToolSearch({
      query: 'x',
      tools: [{ name: 'evil', description: 'Line one\nline two\u001b[2J', parameters: { type: 'object' } }],
    });
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('"Line one line two\\u001b[2J"');
  });
});
