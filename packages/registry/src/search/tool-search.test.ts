import fs from 'node:fs';
import path from 'node:path';
import type { ToolDeclaration } from '@toolwright/schema';
import { describe, expect, it } from 'vitest';
import { fromFunction } from '../registered-tool.js';
import { RegistryError } from '../registry-error.js';
import { ToolRegistry } from '../tool-registry.js';
import { buildSearchIndex, MAX_QUERY_LENGTH } from './tool-search-index.js';

interface FixtureTool {
  name: string;
  description: string;
  parameters: Record<string, string>;
  tags?: string[];
  group?: string;
}

const FIXTURE: FixtureTool[] = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'tools.json'), 'utf8'));

function declare(tool: FixtureTool): ToolDeclaration {
  const properties = Object.fromEntries(Object.entries(tool.parameters).map(([name, description]) => [name, { type: 'string' as const, description }]));
  return {
    name: tool.name,
    description: tool.description,
    parameterOrder: Object.keys(properties),
    parameters: { type: 'object', properties, required: [], additionalProperties: false },
    metadata: {
      tier: 'read-only',
      timeoutMs: 1000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'pure',
      resources: { timeoutMs: 1000 },
      parallel: true,
      tags: tool.tags ?? [],
      ...(tool.group ? { group: tool.group } : {}),
    },
  };
}

function registryOf(tools: FixtureTool[] = FIXTURE): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.add(fromFunction(declare(tool), async () => undefined));
  return registry;
}

const top = (registry: ToolRegistry, query: string, limit?: number) => registry.search(query, { limit }).map((m) => m.name);

describe('ToolRegistry.search', () => {
  const registry = registryOf();

  it.for([
    ['file_read', 'file_read', 'an exact wire name, ahead of the tools whose names share its words'],
    ['file_read_lines', 'file_read_lines', 'an exact wire name'],
    ['read lines', 'file_read_lines', 'the words of a name'],
    ['thumbnail', 'resize_image', 'a word only its description has'],
    ['exchange rate', 'create_invoice', 'words only a parameter description has'],
    ['mentions', 'send_message', 'a parameter name'],
    ['slack', 'send_message', 'a tag'],
    ['smtp', 'send_email', 'a tag'],
    ['finance', 'create_invoice', 'its group'],
    ['weather forecast', 'getWeatherForecast', 'the humps of a camelCase name'],
    ['repository', 'list_repositories', 'the singular of a plural word'],
    ['configuration of the reposit', 'list_repositories', 'the start of a word (prefix)'],
    ['repositries', 'list_repositories', 'a word with a typo'],
  ])('finds %s first: %s (%s)', ([query, expected]) => {
    expect(top(registry, query!)[0]).toBe(expected);
  });

  it('returns name, score and declaration, best first, at most `limit`', () => {
    const matches = registry.search('file', { limit: 2 });
    expect(matches.map((m) => m.name)).toHaveLength(2);
    expect(matches[0]!.score).toBeGreaterThanOrEqual(matches[1]!.score);
    expect(matches[0]!.declaration).toBe(registry.get(matches[0]!.name)!.declaration);
    expect(top(registry, 'file').length).toBe(3);
  });

  it('sees tools registered and unregistered after an earlier search', () => {
    const changing = registryOf();
    expect(top(changing, 'translate')).toEqual([]);
    changing.add(fromFunction(declare({ name: 'translate_text', description: 'Translates text into another language.', parameters: {} }), async () => 1));
    expect(top(changing, 'translate')).toEqual(['translate_text']);
    changing.unregister('translate_text');
    expect(top(changing, 'translate')).toEqual([]);
    changing.unregister('resize_image');
    expect(top(changing, 'thumbnail')).toEqual([]);
  });

  it('searches an empty registry', () => {
    expect(new ToolRegistry().search('anything')).toEqual([]);
  });

  it.for(['the', 'what is the tool to use for this', '!!! ??? ...', '🙂', '-- ** //', 'a b c'])('finds nothing for %j, not everything', (query) => {
    expect(registry.search(query)).toEqual([]);
  });

  it.for([
    ['constructor', 'constructor'],
    ['__proto__', '__proto__'],
    ['a command line', '$(rm -rf /)'],
    ['the longest query', `${'file '.repeat(MAX_QUERY_LENGTH / 5 - 1)}read`],
  ])('does not trip over %s', ([, query]) => {
    expect(() => registry.search(query!)).not.toThrow();
  });

  it.for([
    ['an empty query', '', /empty/],
    ['a blank query', ' \n\t ', /empty/],
    ['a query one character too long', 'x'.repeat(MAX_QUERY_LENGTH + 1), /1001 characters/],
  ])('refuses %s as invalid_query', ([, query, message]) => {
    expect(() => registry.search(query as string)).toThrow(
      expect.objectContaining({ code: 'invalid_query', message: expect.stringMatching(message as RegExp) }),
    );
    expect(() => registry.search(query as string)).toThrow(RegistryError);
  });

  it.for([0, -1, 1.5, 101, Number.NaN])('refuses the limit %s', (limit) => {
    expect(() => registry.search('file', { limit })).toThrow(expect.objectContaining({ code: 'invalid_query' }));
  });
});

describe('a search index built ahead of time', () => {
  const queries = ['read lines', 'thumbnail', 'exchange rate', 'slack', 'repositry', 'config'];
  const data = () => JSON.parse(JSON.stringify(buildSearchIndex(FIXTURE.map(declare)))) as unknown;

  it('is loaded for the tools it was built from and ranks exactly as an index built on the first search', () => {
    const built = registryOf();
    const loaded = registryOf();
    loaded.useSearchIndex(data());
    for (const query of queries) expect(loaded.search(query, { limit: 10 }), query).toEqual(built.search(query, { limit: 10 }));
    expect(loaded.searchIndexLoaded).toBe(true);
    expect(built.searchIndexLoaded).toBe(false);
  });

  it('keeps the entries of the tools it holds: another tool is indexed beside them, a changed one afresh, a missing one dropped', () => {
    const [first, second, ...rest] = FIXTURE;
    const changed = { ...first!, description: 'Counts zebras in a photo.' };
    const extra = { name: 'zebra_census', description: 'Counts zebras in a park.', parameters: {} };
    const registry = registryOf([changed, ...rest, extra]);
    registry.useSearchIndex(data());
    expect(top(registry, 'zebras', 2).sort()).toEqual([changed.name, 'zebra_census'].sort());
    expect(registry.searchIndexLoaded).toBe(true);
    expect(registry.search(second!.name, { limit: 100 }).map((m) => m.name)).not.toContain(second!.name);
    // Added after the index was loaded: the next search indexes the new tool too.
    registry.add(fromFunction(declare({ name: 'okapi_count', description: 'Counts okapis.', parameters: {} }), async () => undefined));
    expect(top(registry, 'okapis')).toEqual(['okapi_count']);
  });

  it('is built afresh when little of it holds', () => {
    const registry = registryOf(FIXTURE.slice(0, 3).map((tool) => ({ ...tool, description: `${tool.description} Changed.` })));
    registry.useSearchIndex(data());
    registry.search('file');
    expect(registry.searchIndexLoaded).toBe(false);
  });

  it.for([
    ['not an object', 'write it with `toolwright emit --search-index <file>`'],
    [[], 'not an object'],
    [{ format: 'other', tools: {}, index: {} }, 'format is "other"'],
    [{ format: 'toolwright-search-index-1', index: {} }, 'lacks its tools or its index'],
    [{ format: 'toolwright-search-index-1', tools: { a: 1 }, index: {} }, 'lacks its tools or its index'],
  ] as const)('refuses data that is no index (%j)', ([value, message]) => {
    expect(() => registryOf().useSearchIndex(value)).toThrow(
      expect.objectContaining({ code: 'invalid_search_index', message: expect.stringContaining(message) }),
    );
  });
});
