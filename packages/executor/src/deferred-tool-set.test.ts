import { describe, expect, it } from 'vitest';
import { toAnthropicTools, ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { DeferredToolSet } from './deferred-tool-set.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { runToolTurn } from './provider-turns.js';
import { ToolExecutor } from './tool-executor.js';
import { declaration, defineTool } from './test-support/declare-tool.js';

/**
 * A weather tool (loaded up front), a currency tool declared `defer`, two GitHub tools the host defers by glob, and a
 * `tool_search` that answers as the core one does (`{ query, tools: [{ name, ... }] }`).
 */
function setUp(options: { search?: boolean } = {}) {
  const registry = new ToolRegistry();
  const ran: string[] = [];
  const add = (decl: ToolDeclaration) => registry.register(defineTool(async (...args: unknown[]) => (ran.push(decl.name), { args }), decl));
  add(declaration('get_weather', { city: { type: 'string' } }, { description: 'Gets the weather forecast for a city.' }));
  add(
    declaration(
      'convert_currency',
      { amount: { type: 'number' }, to: { type: 'string' } },
      { description: 'Converts an amount of money to another currency.', metadata: { defer: true } },
    ),
  );
  add(declaration('github_create_issue', { title: { type: 'string' } }, { description: 'Opens an issue in a GitHub repository.' }));
  add(declaration('github_list_issues', { repo: { type: 'string' } }, { description: 'Lists the open issues of a GitHub repository.' }));
  if (options.search !== false)
    registry.register(
      defineTool(
        async (query: string) => ({ query, tools: registry.search(query, { limit: 2 }).map(({ name }) => ({ name, description: '', parameters: {} })) }),
        declaration('tool_search', { query: { type: 'string' } }, { description: 'Searches the tools available to you.' }),
      ),
    );
  const audit = new MemoryAuditSink();
  return { registry, ran, audit, executor: new ToolExecutor({ registry, audit }) };
}

/** One model turn in Anthropic's shape: the tool_use blocks it holds. */
const turn = (...uses: [id: string, name: string, input: Record<string, unknown>][]) => ({
  format: 'anthropic' as const,
  response: { content: uses.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })) },
});
const names = (declarations: readonly ToolDeclaration[]) => declarations.map((d) => d.name);

describe('deferred loading in a provider loop', () => {
  it('offers the search tool instead of the deferred tools, loads what a search finds, and runs it on the next turn', async () => {
    const { registry, executor, ran } = setUp();
    const tools = new DeferredToolSet(registry, { defer: ['github_*'] });
    expect(names(tools.declarations())).toEqual(['get_weather', 'tool_search']);

    const searched = await runToolTurn(executor, turn(['t1', 'tool_search', { query: 'open an issue on github' }]), { offeredTools: tools });
    expect(searched.results[0]!.status).toBe('completed');
    expect([...searched.loaded].sort()).toEqual(['github_create_issue', 'github_list_issues']);
    expect(names(tools.declarations())).toEqual(['get_weather', 'github_create_issue', 'github_list_issues', 'tool_search']);

    const called = await runToolTurn(executor, turn(['t2', 'github_create_issue', { title: 'Flaky test' }]), { offeredTools: tools });
    expect(called.results[0]!.status).toBe('completed');
    expect(called.loaded).toEqual([]);
    expect(ran).toEqual(['github_create_issue']);
    expect([...tools.loaded].sort()).toEqual(['github_create_issue', 'github_list_issues']);
  });

  it('refuses a deferred tool that was never loaded with a correction naming tool_search, audited as a rejection', async () => {
    const { registry, executor, ran, audit } = setUp();
    const tools = new DeferredToolSet(registry);
    const { results, messages } = await runToolTurn(executor, turn(['t1', 'convert_currency', { amount: 10, to: 'EUR' }]), { offeredTools: tools });
    expect(results[0]).toMatchObject({ status: 'error', error: { code: 'tool_not_loaded', tool: 'convert_currency', searchTool: 'tool_search' } });
    expect(messages[0]!.content[0]).toMatchObject({
      is_error: true,
      content:
        "Tool execution failed: 'convert_currency' is not loaded yet, so it cannot be called now. Call 'tool_search' first with what you want to do " +
        "(or the name 'convert_currency'); the tools it finds can be called from your next turn on.",
    });
    expect(ran).toEqual([]);
    expect(audit.records).toContainEqual(expect.objectContaining({ type: 'ToolCallRejected', callId: 't1', code: 'tool_not_loaded' }));
    // Without the set the executor runs whatever is registered, as before.
    expect((await executor.executeToolCall({ id: 't2', name: 'convert_currency', arguments: { amount: 1, to: 'EUR' } })).status).toBe('completed');
  });

  it('loads a tool found in a turn for the next turn only: a call of it in the same turn is refused', async () => {
    const { registry, executor } = setUp();
    const tools = new DeferredToolSet(registry);
    const { results, loaded } = await runToolTurn(
      executor,
      turn(['t1', 'tool_search', { query: 'convert currency' }], ['t2', 'convert_currency', { amount: 3, to: 'USD' }]),
      { offeredTools: tools },
    );
    expect(results.map((r) => (r.status === 'error' ? r.error.code : r.status))).toEqual(['completed', 'tool_not_loaded']);
    expect(loaded).toEqual(['convert_currency']);
    const again = await runToolTurn(executor, turn(['t3', 'convert_currency', { amount: 3, to: 'USD' }]), { offeredTools: tools });
    expect(again.results[0]!.status).toBe('completed');
  });

  it('answers a call of a tool the model was not offered as an unknown tool, suggesting only offered names', async () => {
    const { registry, executor } = setUp();
    const tools = new DeferredToolSet(registry, { declared: false }); // nothing deferred: no tool_search offered
    expect(names(tools.declarations())).toEqual(['convert_currency', 'get_weather', 'github_create_issue', 'github_list_issues']);
    const [search, typo] = await executor.executeBatch(
      [
        { id: 't1', name: 'tool_search', arguments: { query: 'weather' } },
        { id: 't2', name: 'tool_serch', arguments: { query: 'weather' } },
      ],
      { offeredTools: tools },
    );
    expect(search).toMatchObject({ status: 'error', error: { code: 'unknown_tool', tool: 'tool_search' } });
    expect(typo).toMatchObject({ status: 'error', error: { code: 'unknown_tool', suggestions: [] } });
  });
});

describe(DeferredToolSet, () => {
  it('sends loaded tools without their defer setting, so a provider does not defer them again', () => {
    const { registry } = setUp();
    const tools = new DeferredToolSet(registry);
    expect(toAnthropicTools(registry.list()).find((t) => t.name === 'convert_currency')).toMatchObject({ defer_loading: true });
    expect(tools.load(['convert_currency', 'get_weather'])).toEqual(['convert_currency']); // get_weather is not deferred
    expect(tools.load(['convert_currency'])).toEqual([]);
    const sent = toAnthropicTools(tools.declarations()).find((t) => t.name === 'convert_currency')!;
    expect(sent).not.toHaveProperty('defer_loading');
    expect(registry.get('convert_currency')!.declaration.metadata.defer).toBe(true); // the registry's declaration is left alone
  });

  it('defers by predicate, never the search tool, and follows tools registered later', () => {
    const { registry } = setUp();
    const tools = new DeferredToolSet(registry, { defer: (d) => d.description.includes('GitHub') || d.name === 'tool_search', declared: false });
    expect(['get_weather', 'convert_currency', 'github_list_issues', 'tool_search'].map((name) => tools.isDeferred(name))).toEqual([false, false, true, false]);
    registry.register(defineTool(async () => 1, declaration('github_merge', {}, { description: 'Merges a GitHub pull request.' })));
    expect(tools.defers('github_merge')).toBe(true);
    expect(tools.offers('github_merge')).toBe(false);
    expect(tools.offers('no_such_tool')).toBe(false);
  });

  it('loads only names of completed calls of the search tool, and only registered deferred ones', () => {
    const { registry } = setUp();
    const tools = new DeferredToolSet(registry);
    const result = (tool: string, output: unknown, status: 'completed' | 'error' = 'completed') =>
      status === 'completed'
        ? { callId: 'c', tool, status, output, content: '', truncated: false, durationMs: 0, originalBytes: 0, outputHash: '' }
        : { callId: 'c', tool, status, error: { code: 'timeout' as const, timeoutMs: 1 }, content: '', truncated: false, durationMs: 0 };
    const found = { tools: [{ name: 'convert_currency' }, { name: 'gone' }, { name: 42 }, null] };
    expect(tools.loadFound([result('get_weather', found), result('tool_search', { tools: 'none' }), result('tool_search', found, 'error')])).toEqual([]);
    expect(tools.loadFound([result('tool_search', found)])).toEqual(['convert_currency']);
  });

  it('takes another search tool and another way to read what it found', async () => {
    const { registry } = setUp({ search: false });
    registry.register(defineTool(async () => ['convert_currency'], declaration('find_tools', {}, { returns: { type: 'array', items: { type: 'string' } } })));
    const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink() });
    const tools = new DeferredToolSet(registry, { searchTool: 'find_tools', foundIn: (output) => output as string[] });
    expect(names(tools.declarations())).toEqual(['find_tools', 'get_weather', 'github_create_issue', 'github_list_issues']);
    const { loaded } = await runToolTurn(executor, turn(['t1', 'find_tools', {}]), { offeredTools: tools });
    expect(loaded).toEqual(['convert_currency']);
  });

  it.for([
    [{ defer: ['github_*', ''] }, '"" is not a glob of tool names'],
    [{ defer: ['file read'] }, '"file read" is not a glob of tool names'],
    [{ defer: 'github_*' }, 'defer must be a list of globs of tool names, or a predicate'],
    [{ searchTool: '' }, 'searchTool must be a tool name'],
  ] as const)('refuses bad options: %j', ([options, message]) => {
    expect(() => new DeferredToolSet(new ToolRegistry(), options as never)).toThrow(message);
  });

  it('refuses to offer deferred tools when no search tool is registered to find them', () => {
    const { registry } = setUp({ search: false });
    const tools = new DeferredToolSet(registry, { defer: ['github_*'] });
    expect(() => tools.declarations()).toThrow(
      "3 tools are deferred (convert_currency, github_create_issue, github_list_issues), but no 'tool_search' tool is registered to find them",
    );
    expect(() => tools.load(['github_merge'])).toThrow("no tool named 'github_merge' is registered");
    expect(names(new DeferredToolSet(registry, { declared: false }).declarations())).toHaveLength(4); // nothing deferred: nothing to find
  });
});
