import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';
import { decodeOpenAIStrictArguments, decodeOpenAIStrictCall, isMap, isOpaque, lowerForOpenAIStrict } from './openai-strict.js';
import { toOpenAIChatTools, toOpenAIResponsesTools } from './openai.js';
import { toAnthropicTools, type AnthropicTool, type AnthropicToolSearchTool } from './anthropic.js';
import { anthropicStrictObstacle } from './anthropic-strict.js';
import { lowerForGemini, toGeminiFunctionDeclarations } from './gemini.js';
import { MCP_META_KEYS, structuredContentOf, toMcpTools } from './mcp.js';

/** `tool`, which the test expects to be a declared tool's entry: when it is Anthropic's tool search (or missing), the test fails here. */
function declaredTool(tool: AnthropicTool | AnthropicToolSearchTool | undefined): AnthropicTool {
  if (tool === undefined || 'type' in tool) throw new Error(`expected a declared tool's entry, got ${JSON.stringify(tool)}`);
  return tool;
}

/** Every valid transformer fixture: real declarations with samples the original schema accepts. */
const FIXTURES = path.resolve(__dirname, '../../../transformer/fixtures');
const corpus: { id: string; declaration: ToolDeclaration; valid: Record<string, unknown>[] }[] = [];
for (const area of fs.readdirSync(FIXTURES).filter((a) => a !== '_error_')) {
  for (const name of fs.readdirSync(path.join(FIXTURES, area))) {
    const dir = path.join(FIXTURES, area, name);
    if (!fs.existsSync(path.join(dir, 'expected.json'))) continue;
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
    const samples = fs.existsSync(path.join(dir, 'samples.json')) ? JSON.parse(fs.readFileSync(path.join(dir, 'samples.json'), 'utf8')) : {};
    for (const declaration of (Array.isArray(expected) ? expected : [expected]) as ToolDeclaration[]) {
      corpus.push({ id: `${area}/${name}/${declaration.name}`, declaration, valid: samples[declaration.name]?.valid ?? [] });
    }
  }
}

const ajv = () => new Ajv2020({ strict: false, allErrors: true });

/** What a model in strict mode sends for a valid original call: every property present (null when absent), maps as entries. */
function encodeStrict(schema: JsonSchema, value: unknown, defs: Record<string, JsonSchema>): unknown {
  const resolved = schema.$ref ? defs[schema.$ref.replace('#/$defs/', '')]! : schema;
  if (isOpaque(resolved)) return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (resolved.prefixItems) return value.map((v, i) => encodeStrict(resolved.prefixItems![i] ?? (resolved.items as JsonSchema) ?? {}, v, defs));
    if (resolved.items) return value.map((v) => encodeStrict(resolved.items as JsonSchema, v, defs));
    if (resolved.anyOf) {
      const branch = resolved.anyOf.map((b) => (b.$ref ? defs[b.$ref.replace('#/$defs/', '')]! : b)).find((b) => b.type === 'array' || b.items !== undefined);
      return branch ? encodeStrict(branch, value, defs) : value;
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  if (isMap(resolved)) {
    return Object.entries(object).map(([key, v]) => ({ key, value: encodeStrict(resolved.additionalProperties as JsonSchema, v, defs) }));
  }
  if (!resolved.properties && resolved.anyOf) {
    const branches = resolved.anyOf.map((b) => (b.$ref ? defs[b.$ref.replace('#/$defs/', '')]! : b));
    const branch =
      branches.find((b) => b.properties && Object.keys(b.properties).length > 0 && Object.keys(object).every((k) => k in b.properties!)) ??
      branches.find(isMap);
    return branch ? encodeStrict(branch, value, defs) : value;
  }
  if (!resolved.properties) return value;
  const named = Object.entries(resolved.properties).map(([key, property]) => [key, key in object ? encodeStrict(property, object[key], defs) : null]);
  if (typeof resolved.additionalProperties !== 'object') return Object.fromEntries(named);
  // Named properties and other typed keys: the others as entries under a name none of the named ones has.
  let extras = 'other_entries';
  while (extras in resolved.properties) extras = `_${extras}`;
  const others = Object.entries(object)
    .filter(([key]) => !(key in resolved.properties!))
    .map(([key, v]) => ({ key, value: encodeStrict(resolved.additionalProperties as JsonSchema, v, defs) }));
  return Object.fromEntries([...named, [extras, others]]);
}

describe('OpenAI strict lowering, over every fixture', () => {
  it.each(corpus.map((c) => [c.id, c] as const))('%s', (_id, { declaration, valid }) => {
    const lowered = lowerForOpenAIStrict(declaration.parameters);
    // strict-dialect shape: every object closed, every property required, no rejected keywords
    const walk = (node: JsonSchema): void => {
      for (const banned of ['default', 'examples', 'minLength', 'maxLength', 'uniqueItems', 'prefixItems', 'deprecated'] as const)
        expect(node[banned], banned).toBeUndefined();
      if (node.properties) {
        expect(node.additionalProperties).toBe(false);
        expect(new Set(node.required)).toEqual(new Set(Object.keys(node.properties)));
      }
      for (const child of [
        ...Object.values(node.properties ?? {}),
        ...(node.anyOf ?? []),
        ...(node.items ? [node.items] : []),
        ...Object.values(node.$defs ?? {}),
      ])
        walk(child as JsonSchema);
    };
    walk(lowered);
    const validateLowered = ajv().compile(lowered);
    const validateOriginal = ajv().compile(declaration.parameters);
    for (const sample of valid) {
      const sent = encodeStrict(declaration.parameters, sample, declaration.parameters.$defs ?? {}) as Record<string, unknown>;
      expect(validateLowered(sent), JSON.stringify(validateLowered.errors)).toBe(true);
      const decoded = decodeOpenAIStrictArguments(declaration.parameters, sent);
      // Strict mode sends every property: for an optional property that also accepts null, "not
      // given" arrives as null (the dialect cannot tell the two apart).
      expect(decoded).toEqual(withOptionalNulls(declaration.parameters, sample));
      expect(validateOriginal(decoded)).toBe(true);
    }
  });
});

/** The sample as strict mode carries it: a top-level optional property that accepts null, when absent, is null. */
function withOptionalNulls(schema: JsonSchema, sample: Record<string, unknown>): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const nullable = (property: JsonSchema): boolean => {
    const resolved = property.$ref ? (schema.$defs?.[property.$ref.replace('#/$defs/', '')] ?? property) : property;
    return resolved.type === 'null' || (Array.isArray(resolved.type) && resolved.type.includes('null')) || (resolved.anyOf ?? []).some(nullable);
  };
  const filled = { ...sample };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (!required.has(key) && !(key in filled) && nullable(property)) filled[key] = null;
  }
  return filled;
}

const sample = corpus.find((c) => c.id.includes('optional'))!.declaration;

describe('OpenAI strict decoding', () => {
  const declaration: ToolDeclaration = {
    name: 'search',
    description: 'Searches.',
    parameterOrder: ['query', 'limit', 'filter', 'tags'],
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['query', 'filter'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 80, default: 'x' },
        limit: { type: 'integer' },
        filter: {
          type: 'object',
          properties: { after: { type: 'string', format: 'date' }, note: { type: ['string', 'null'] } },
          required: [],
          additionalProperties: false,
        },
        tags: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    },
    metadata: {
      tier: 'read-only',
      timeoutMs: 1000,
      sideEffects: ['none'],
      capabilities: [],
      determinism: 'pure',
      resources: { timeoutMs: 1000 },
      parallel: true,
      tags: [],
    },
  };

  it('sends any JSON value and open objects as JSON text, and parses it back', () => {
    const parameters: ToolDeclaration['parameters'] = {
      type: 'object',
      additionalProperties: false,
      required: ['body', 'meta'],
      properties: { body: { description: 'Any JSON value.' }, meta: { type: 'object' } },
    };
    const lowered = lowerForOpenAIStrict(parameters);
    expect(lowered.properties!.body).toEqual({ type: 'string', description: 'Any JSON value. (any JSON value, written as JSON text)' });
    expect(lowered.properties!.meta).toMatchObject({ type: 'string' });
    expect(decodeOpenAIStrictArguments(parameters, { body: '[1,{"a":null}]', meta: '{"x":1}' })).toEqual({ body: [1, { a: null }], meta: { x: 1 } });
    // Text that is not JSON stays text: validation against the original schema then judges it.
    expect(decodeOpenAIStrictArguments(parameters, { body: 'plain words', meta: '{oops' })).toEqual({ body: 'plain words', meta: '{oops' });
  });

  it('moves rejected keywords into the description', () => {
    const lowered = lowerForOpenAIStrict(declaration.parameters);
    expect(lowered.properties!.query).toEqual({ type: 'string', description: '(default: "x"; at least 1 character; at most 80 characters)' });
    expect(lowered.properties!.limit).toEqual({ type: ['integer', 'null'] });
    expect(lowered.properties!.tags).toMatchObject({ type: ['array', 'null'], items: { properties: { key: { type: 'string' }, value: { type: 'integer' } } } });
  });

  it('turns nulls for optional properties back into absent ones and keeps nulls the type allows', () => {
    const decoded = decodeOpenAIStrictArguments(declaration.parameters, {
      query: 'q',
      limit: null,
      filter: { after: null, note: null },
      tags: [
        { key: 'a', value: 1 },
        { key: '__proto__', value: 2 },
      ],
    });
    expect(decoded).toEqual({
      query: 'q',
      filter: { note: null },
      tags: Object.fromEntries([
        ['a', 1],
        ['__proto__', 2],
      ]),
    });
    expect(Object.getPrototypeOf(decoded.tags)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect('limit' in decoded).toBe(false);
  });

  it('exports chat and responses tools, strict and not', () => {
    expect(toOpenAIChatTools([declaration])[0]).toEqual({
      type: 'function',
      function: { name: 'search', description: 'Searches.', parameters: declaration.parameters },
    });
    expect(toOpenAIChatTools([declaration], { strict: true })[0]!.function.strict).toBe(true);
    expect(toOpenAIResponsesTools([declaration], { strict: true })[0]).toMatchObject({
      type: 'function',
      name: 'search',
      strict: true,
      parameters: { required: ['query', 'limit', 'filter', 'tags'] },
    });
    expect(sample).toBeDefined();
  });
});

describe('Gemini lowering, over every fixture', () => {
  it.each(corpus.map((c) => [c.id, c] as const))('%s', (_id, { declaration }) => {
    const { schema } = lowerForGemini(declaration.parameters, { order: declaration.parameterOrder });
    const text = JSON.stringify(schema);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('additionalProperties');
    expect(text).not.toContain('prefixItems');
    expect(text).not.toMatch(/"const"|"examples"|"exclusiveM/);
    expect(schema.type).toBe('OBJECT');
    expect(schema.propertyOrdering).toEqual(declaration.parameterOrder);
    const enums = text.match(/"enum":\[[^\]]*\]/g) ?? [];
    for (const e of enums) expect(JSON.parse(e.slice(7)).every((v: unknown) => typeof v === 'string')).toBe(true);
  });

  it('describes a recursive type instead of failing, with a warning', () => {
    const recursive = corpus.find((c) => JSON.stringify(c.declaration.parameters).includes('$ref') && /recurs|tree/i.test(c.id));
    expect(recursive, 'a recursive fixture').toBeDefined();
    const { warnings } = lowerForGemini(recursive!.declaration.parameters);
    expect(warnings.join('\n')).toMatch(/recursive type/);
  });

  it('emits the SDK enum values when given them, and integer limits as strings', () => {
    const types = { STRING: 1, NUMBER: 2, INTEGER: 3, BOOLEAN: 4, ARRAY: 5, OBJECT: 6, NULL: 7 } as const;
    const [decl] = toGeminiFunctionDeclarations(
      [
        {
          ...corpus[0]!.declaration,
          parameters: {
            type: 'object',
            additionalProperties: false,
            required: [],
            properties: { n: { type: ['integer', 'null'], minimum: 1 }, s: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
          },
        },
      ],
      { types },
    );
    expect(decl!.parameters.properties).toEqual({ n: { type: 3, minimum: 1, nullable: true }, s: { type: 5, items: { type: 1 }, maxItems: '3' } });
  });
});

describe('Anthropic and MCP', () => {
  it('puts the parameters schema in input_schema / inputSchema', () => {
    for (const { declaration } of corpus.slice(0, 10)) {
      expect(toAnthropicTools([declaration])[0]).toEqual({
        name: declaration.name,
        description: declaration.description,
        input_schema: declaration.parameters,
      });
      expect(toMcpTools([declaration])[0]!.inputSchema).toEqual(declaration.parameters);
    }
  });

  it('derives MCP annotations from the tier and side effects', () => {
    const base = corpus[0]!.declaration;
    const make = (metadata: Partial<ToolDeclaration['metadata']>) => toMcpTools([{ ...base, metadata: { ...base.metadata, ...metadata } }])[0]!.annotations;
    expect(toMcpTools([{ ...base, name: 'file_read' }])[0]!.title).toBe('File read');
    expect(make({ tier: 'read-only', sideEffects: ['fs-read'], determinism: 'deterministic' })).toEqual({
      title: expect.any(String),
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(make({ tier: 'side-effecting', sideEffects: ['fs-write'], determinism: 'maybe' })).toEqual({
      title: expect.any(String),
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(make({ tier: 'side-effecting', sideEffects: ['net-read'], determinism: 'non-deterministic' })).toEqual({
      title: expect.any(String),
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(make({ tier: 'privileged', sideEffects: ['process-spawn'] }).destructiveHint).toBe(true);
  });

  it('gives an object result its schema, inlining a named one, and wraps an array or a primitive as { result }', () => {
    for (const { declaration } of corpus) {
      const tool = toMcpTools([declaration])[0]!;
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
      if (declaration.returns?.type === 'array' || declaration.returns?.type === 'string') {
        const { $defs: _defs, ...result } = declaration.returns;
        expect(tool.outputSchema).toMatchObject({ type: 'object', properties: { result }, required: ['result'], additionalProperties: false });
        expect(structuredContentOf(declaration, ['x'])).toEqual({ result: ['x'] });
      }
    }
    const recursive = corpus.find((c) => c.id.includes('recursive-return'))!;
    expect(toMcpTools([recursive.declaration])[0]!.outputSchema).toMatchObject({ type: 'object', $defs: { Entry: expect.any(Object) } });
  });
});

describe('OpenAI strict lowering of named properties with other typed keys', () => {
  it('carries the other keys as entries beside the named ones, under a name no named property has, and decodes them back', () => {
    const schema = {
      type: 'object',
      properties: { other_entries: { type: 'string' }, total: { type: 'number' } },
      required: ['total'],
      additionalProperties: { type: 'number' },
    } as const;
    const lowered = lowerForOpenAIStrict(schema as never);
    expect(Object.keys(lowered.properties!)).toEqual(['other_entries', 'total', '_other_entries']);
    const sent = {
      other_entries: 'a note',
      total: 3,
      _other_entries: [
        { key: 'x', value: 1 },
        { key: 'total', value: 99 },
      ],
    };
    expect(ajv().compile(lowered)(sent)).toBe(true);
    // An entry for a named key is not allowed to overwrite it.
    expect(decodeOpenAIStrictArguments(schema as never, sent)).toEqual({ other_entries: 'a note', total: 3, x: 1 });
  });
});

describe('provider settings: strict, defer, examples, callers', () => {
  // The transformer's own declarations of tools that set them (fixtures/options/provider-settings).
  const settings = Object.fromEntries(corpus.filter((c) => c.id.startsWith('options/provider-settings/')).map((c) => [c.declaration.name, c.declaration]));
  const readLines = settings.read_lines!;
  const convert = settings.convert!;
  const ping = settings.ping!;

  it('reads the fixture: read_lines defers with two callers and two examples, convert turns strict off, ping sets nothing', () => {
    expect(readLines.metadata).toMatchObject({ defer: true, callers: ['direct', 'programmatic'], examples: [{ path: 'README.md' }, expect.any(Object)] });
    expect(convert.metadata).toMatchObject({ strict: false, defer: true, callers: ['programmatic'] });
    for (const key of ['strict', 'defer', 'examples', 'callers']) expect(ping.metadata).not.toHaveProperty(key);
  });

  it('OpenAI strict exports lower every tool but one that says strict: false, which keeps its own schema', () => {
    const [lines, conv] = toOpenAIChatTools([readLines, convert], { strict: true });
    expect(lines!.function).toMatchObject({ strict: true, parameters: lowerForOpenAIStrict(readLines.parameters) });
    expect(conv!.function).toMatchObject({ strict: false, parameters: convert.parameters });
    const [, responses] = toOpenAIResponsesTools([readLines, convert], { strict: true });
    expect(responses).toMatchObject({ strict: false, parameters: convert.parameters });
    // Without strict mode nothing changes: strict stays the host's choice (its calls must be decoded).
    expect(toOpenAIChatTools([convert])[0]!.function).not.toHaveProperty('strict');
  });

  it('decodes a strict call unless the tool is sent as it is', () => {
    const sent = { path: 'a.ts', limit: null, range: null };
    expect(decodeOpenAIStrictCall(readLines, sent)).toEqual({ path: 'a.ts' });
    const asItIs = { amount: 1, to: 'EUR', note: null };
    expect(decodeOpenAIStrictCall(convert, asItIs)).toBe(asItIs);
  });

  it('Responses tools carry defer_loading and allowed_callers; Chat Completions tools have no such fields', () => {
    const [lines, conv, plain] = toOpenAIResponsesTools([readLines, convert, ping]);
    expect(lines).toMatchObject({ defer_loading: true, allowed_callers: ['direct', 'programmatic'] });
    expect(conv).toMatchObject({ defer_loading: true, allowed_callers: ['programmatic'] });
    expect(plain).not.toHaveProperty('defer_loading');
    expect(plain).not.toHaveProperty('allowed_callers');
    expect(Object.keys(toOpenAIChatTools([readLines])[0]!.function).sort()).toEqual(['description', 'name', 'parameters']);
  });

  it('Anthropic tools carry defer_loading, input_examples and allowed_callers (programmatic as the code execution tool)', () => {
    const [lines, conv, plain] = toAnthropicTools([readLines, convert, ping]);
    expect(lines).toMatchObject({
      defer_loading: true,
      input_examples: readLines.metadata.examples,
      allowed_callers: ['direct', 'code_execution_20250825'],
    });
    expect(declaredTool(conv).allowed_callers).toEqual(['code_execution_20250825']);
    expect(declaredTool(toAnthropicTools([convert], { codeExecution: 'code_execution_20260120' })[0]).allowed_callers).toEqual(['code_execution_20260120']);
    expect(Object.keys(plain!).sort()).toEqual(['description', 'input_schema', 'name']);
  });

  it("a deferred tool brings the provider's own tool search along (Anthropic BM25 or regex, Responses tool_search), unless the host has its own", () => {
    const anthropic = toAnthropicTools([readLines, ping]);
    expect(anthropic).toHaveLength(3);
    expect(anthropic[2]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(toAnthropicTools([readLines], { toolSearch: 'regex' })[1]).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    expect(toAnthropicTools([readLines], { toolSearch: false })).toHaveLength(1);
    expect(toAnthropicTools([ping])).toHaveLength(1); // nothing deferred: no search
    const responses = toOpenAIResponsesTools([readLines, ping]);
    expect(responses.at(-1)).toEqual({ type: 'tool_search' });
    expect(toOpenAIResponsesTools([readLines], { toolSearch: false })).toHaveLength(1);
    expect(toOpenAIResponsesTools([ping])).toHaveLength(1);
    // Chat Completions and Gemini have no deferred loading: no search of theirs (the host offers ours, DeferredToolSet).
    expect(toOpenAIChatTools([readLines])).toHaveLength(1);
  });

  it('Anthropic strict mode marks the tools whose schema is in its subset and that do not opt out', () => {
    const bounded: ToolDeclaration = {
      ...readLines,
      name: 'bounded',
      parameters: { ...readLines.parameters, properties: { ...readLines.parameters.properties, limit: { type: 'integer', minimum: 1 } } },
    };
    const [lines, conv, plain, outside] = toAnthropicTools([readLines, convert, ping, bounded], { strict: true });
    expect(declaredTool(lines).strict).toBe(true);
    expect(declaredTool(plain).strict).toBe(true);
    expect(conv).not.toHaveProperty('strict'); // it says strict: false
    expect(outside).not.toHaveProperty('strict'); // minimum is outside the strict subset
    expect(anthropicStrictObstacle(bounded.parameters)).toBe('minimum at $.limit');
    // Without strict mode no tool is marked: the host asks for it.
    expect(toAnthropicTools([ping])[0]).not.toHaveProperty('strict');
  });

  it.for([
    [{ n: { type: 'integer', minimum: 1 } }, 'minimum at $.n'],
    [{ s: { type: 'string', maxLength: 5 } }, 'maxLength at $.s'],
    [{ a: { type: 'array', items: { type: 'string' }, minItems: 2 } }, 'minItems at $.a'],
    [{ m: { type: 'object', additionalProperties: { type: 'string' } } }, 'open object at $.m'],
    [{ v: {} }, 'any JSON value at $.v'],
    [{ u: { type: 'string', format: 'regex' } }, 'format regex at $.u'],
    [{ p: { type: 'string', pattern: '^(a)\\1$' } }, 'pattern at $.p'],
    [{ d: { type: 'string', format: 'date-time', pattern: '^2' }, e: { enum: ['a', 'b'] }, o: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, undefined],
  ] as const)('anthropicStrictObstacle(%j) is %s', ([properties, obstacle]) => {
    expect(anthropicStrictObstacle({ type: 'object', properties: properties as Record<string, JsonSchema>, required: [], additionalProperties: false })).toBe(
      obstacle,
    );
  });

  it('finds a recursive $ref', () => {
    const node: JsonSchema = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, additionalProperties: false };
    expect(
      anthropicStrictObstacle({
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        required: [],
        additionalProperties: false,
        $defs: { Node: node },
      }),
    ).toBe('recursive $ref Node at $.root.children[]');
  });

  it('MCP puts the declared settings under toolwright/ keys of _meta, and no _meta for a tool without them', () => {
    const [lines, conv, plain] = toMcpTools([readLines, convert, ping]);
    expect(lines!._meta).toEqual({
      [MCP_META_KEYS.defer]: true,
      [MCP_META_KEYS.examples]: readLines.metadata.examples,
      [MCP_META_KEYS.callers]: ['direct', 'programmatic'],
    });
    expect(conv!._meta).toMatchObject({ 'toolwright/strict': false, 'toolwright/defer': true, 'toolwright/callers': ['programmatic'] });
    expect(plain).not.toHaveProperty('_meta');
  });
});
