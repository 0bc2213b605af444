import { describe, expect, it } from 'vitest';
import type { JsonSchema, ParametersSchema, ToolDeclaration } from '@toolwright/schema';
import { declarationChanges, formatChange, type ChangeKind } from './breaking-changes.js';

const metadata = {
  tier: 'read-only',
  timeoutMs: 30_000,
  sideEffects: [],
  capabilities: [],
  determinism: 'maybe',
  resources: { timeoutMs: 30_000 },
  parallel: false,
  tags: [],
} as unknown as ToolDeclaration['metadata'];

const tool = (properties: Record<string, JsonSchema>, required: string[] = ['query'], extra: Partial<ParametersSchema> = {}): ToolDeclaration => ({
  name: 'search_notes',
  description: 'Searches the notes.',
  parameterOrder: Object.keys(properties),
  metadata,
  parameters: { type: 'object', properties, required, additionalProperties: false, ...extra },
});

const base = { query: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 100 } } satisfies Record<string, JsonSchema>;
const before = tool(base);

interface Row {
  title: string;
  /** The committed declaration, when not `before`. */
  from?: ToolDeclaration;
  after: ToolDeclaration[];
  kind: ChangeKind;
  path: string;
  breaking: boolean;
}

const rows: Row[] = [
  {
    title: 'a new required parameter',
    after: [tool({ ...base, scope: { type: 'string' } }, ['query', 'scope'])],
    kind: 'required-parameter-added',
    path: '$.scope',
    breaking: true,
  },
  {
    title: 'a new optional parameter',
    after: [tool({ ...base, scope: { type: 'string' } })],
    kind: 'optional-parameter-added',
    path: '$.scope',
    breaking: false,
  },
  { title: 'a parameter made required', after: [tool(base, ['query', 'limit'])], kind: 'made-required', path: '$.limit', breaking: true },
  { title: 'a parameter made optional', after: [tool(base, [])], kind: 'made-optional', path: '$.query', breaking: false },
  { title: 'a removed parameter', after: [tool({ query: base.query })], kind: 'parameter-removed', path: '$.limit', breaking: true },
  { title: 'a removed tool', after: [], kind: 'tool-removed', path: '$', breaking: true },
  { title: 'a new tool', after: [before, { ...before, name: 'list_notes' }], kind: 'tool-added', path: '$', breaking: false },
  {
    title: 'a type removed from a union',
    from: tool({ ...base, query: { type: ['string', 'number'], maxLength: 200 } }),
    after: [before],
    kind: 'type-narrowed',
    path: '$.query',
    breaking: true,
  },
  {
    title: 'a type added (widened)',
    after: [tool({ ...base, query: { type: ['string', 'null'], maxLength: 200 } })],
    kind: 'type-widened',
    path: '$.query',
    breaking: false,
  },
  {
    title: 'number narrowed to integer',
    from: tool({ ...base, ratio: { type: 'number' } }),
    after: [tool({ ...base, ratio: { type: 'integer' } }, ['query'])],
    kind: 'type-narrowed',
    path: '$.ratio',
    breaking: true,
  },
  {
    title: 'a lower maximum',
    after: [tool({ ...base, limit: { type: 'integer', minimum: 1, maximum: 50 } })],
    kind: 'constraint-tightened',
    path: '$.limit',
    breaking: true,
  },
  {
    title: 'a higher minimum',
    after: [tool({ ...base, limit: { type: 'integer', minimum: 5, maximum: 100 } })],
    kind: 'constraint-tightened',
    path: '$.limit',
    breaking: true,
  },
  {
    title: 'a higher maximum',
    after: [tool({ ...base, limit: { type: 'integer', minimum: 1, maximum: 500 } })],
    kind: 'constraint-loosened',
    path: '$.limit',
    breaking: false,
  },
  {
    title: 'a shorter maxLength',
    after: [tool({ ...base, query: { type: 'string', maxLength: 80 } })],
    kind: 'constraint-tightened',
    path: '$.query',
    breaking: true,
  },
  {
    title: 'a new pattern',
    after: [tool({ ...base, query: { type: 'string', maxLength: 200, pattern: '^\\w+$' } })],
    kind: 'constraint-tightened',
    path: '$.query',
    breaking: true,
  },
  {
    title: 'an enum value removed',
    from: tool({ ...base, sort: { enum: ['new', 'old'] } }),
    after: [tool({ ...base, sort: { enum: ['new'] } })],
    kind: 'enum-value-removed',
    path: '$.sort',
    breaking: true,
  },
  {
    title: 'an enum value added',
    from: tool({ ...base, sort: { enum: ['new', 'old'] } }),
    after: [tool({ ...base, sort: { enum: ['new', 'old', 'relevance'] } })],
    kind: 'enum-value-added',
    path: '$.sort',
    breaking: false,
  },
  {
    title: 'a union member removed',
    from: tool({ ...base, since: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }),
    after: [tool({ ...base, since: { anyOf: [{ type: 'string' }] } })],
    kind: 'union-member-removed',
    path: '$.since',
    breaking: true,
  },
  {
    title: 'a description changed',
    after: [tool({ ...base, query: { type: 'string', maxLength: 200, description: 'Words to find.' } })],
    kind: 'description-changed',
    path: '$.query',
    breaking: false,
  },
];

describe(declarationChanges, () => {
  it.for(rows)('finds $title (breaking: $breaking)', (row) => {
    const changes = declarationChanges([row.from ?? before], row.after);
    expect(changes).toEqual([expect.objectContaining({ tool: expect.any(String), path: row.path, kind: row.kind, breaking: row.breaking })]);
  });

  it('finds nothing when the declarations are the same', () => {
    expect(declarationChanges([before], [structuredClone(before)])).toEqual([]);
  });

  it('follows $refs, recursive ones included, and reports inside their definitions', () => {
    const node = (maxLength: number): ParametersSchema => ({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      required: ['tree'],
      additionalProperties: false,
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string', maxLength }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name', 'children'],
        },
      },
    });
    const changes = declarationChanges([{ ...before, parameters: node(40) }], [{ ...before, parameters: node(20) }]);
    expect(changes.map(formatChange)).toEqual(['search_notes $.tree.name: constraint tightened (maxLength 40 → 20)']);
  });
});

describe('the result, judged from the side of the code that reads it', () => {
  const note: JsonSchema = {
    type: 'object',
    properties: { title: { type: 'string' }, words: { type: 'integer', minimum: 0 }, state: { type: 'string', enum: ['draft', 'done'] } },
    required: ['title', 'words', 'state'],
    additionalProperties: false,
  };
  const returning = (returns: JsonSchema | undefined, extra: Partial<ToolDeclaration> = {}): ToolDeclaration => ({
    ...before,
    ...(returns ? { returns } : {}),
    ...extra,
  });
  const edit = (change: (schema: any) => void): JsonSchema => {
    const copy = structuredClone(note) as any;
    change(copy);
    return copy as JsonSchema;
  };
  const results: [string, ToolDeclaration, ToolDeclaration, string, boolean][] = [
    [
      'a property removed',
      returning(note),
      returning(edit((s) => (delete s.properties.words, (s.required = ['title', 'state'])))),
      'returns.words: property removed',
      true,
    ],
    ['a property made optional', returning(note), returning(edit((s) => (s.required = ['title', 'state']))), 'returns.words: made optional', true],
    [
      'a wider type',
      returning(note),
      returning(edit((s) => (s.properties.words.type = ['integer', 'null']))),
      'returns.words: type widened (null now accepted)',
      true,
    ],
    [
      'a new enum value',
      returning(note),
      returning(edit((s) => s.properties.state.enum.push('archived'))),
      'returns.state: enum value added ("archived")',
      true,
    ],
    [
      'a looser bound',
      returning(note),
      returning(edit((s) => delete s.properties.words.minimum)),
      'returns.words: constraint loosened (minimum 0 → none)',
      true,
    ],
    [
      'another const',
      returning(edit((s) => (s.properties.title.const = 'ok'))),
      returning(edit((s) => (s.properties.title.const = 'success'))),
      'returns.title: constraint changed (const ok → success)',
      true,
    ],
    [
      'a narrower type',
      returning(edit((s) => (s.properties.words.type = ['integer', 'null']))),
      returning(note),
      'returns.words: type narrowed (null no longer accepted)',
      false,
    ],
    [
      'a new property',
      returning(edit((s) => (delete s.properties.words, (s.required = ['title', 'state'])))),
      returning(note),
      'returns.words: required property added',
      false,
    ],
    ['no result any more', returning(note), returning(undefined), 'returns: result removed (JSON → nothing)', true],
    [
      'content blocks instead of JSON',
      returning(note),
      returning(undefined, { returnsContent: true }),
      'returns: result changed (JSON → content blocks)',
      true,
    ],
    ['a result where there was none', returning(undefined), returning(note), 'returns: result added (nothing → JSON)', false],
  ];
  it.for(results)('%s', ([, from, to, line, breaking]) => {
    const changes = declarationChanges([from], [to]);
    expect(changes.map((c) => `${formatChange(c).replace(/^search_notes /, '')}`)).toEqual([line]);
    expect(changes[0]).toMatchObject({ breaking, side: 'returns' });
  });
});

describe('the metadata a host acts on', () => {
  const withMetadata = (fields: Record<string, unknown>): ToolDeclaration => ({
    ...before,
    metadata: { ...metadata, ...fields } as ToolDeclaration['metadata'],
  });
  it.for([
    [
      'a higher tier (calls may now need approval)',
      { tier: 'side-effecting' },
      'search_notes metadata.tier: metadata changed (read-only → side-effecting)',
      true,
    ],
    [
      'a lower determinism (no longer cached or replayed)',
      { determinism: 'non-deterministic' },
      'search_notes metadata.determinism: metadata changed (maybe → non-deterministic)',
      true,
    ],
    ['a higher determinism', { determinism: 'pure' }, 'search_notes metadata.determinism: metadata changed (maybe → pure)', false],
    ['a shorter timeout', { timeoutMs: 5000 }, 'search_notes metadata.timeoutMs: metadata changed (30000 → 5000)', true],
    ['a longer timeout', { timeoutMs: 60_000 }, 'search_notes metadata.timeoutMs: metadata changed (30000 → 60000)', false],
    ['a capability newly required', { capabilities: ['net.connect'] }, 'search_notes metadata.capabilities: metadata changed ([] → ["net.connect"])', true],
    ['a client feature newly required', { requiresClient: ['sampling'] }, 'search_notes metadata.requiresClient: metadata changed (none → ["sampling"])', true],
    ['the model no longer a caller', { callers: ['programmatic'] }, 'search_notes metadata.callers: metadata changed (none → ["programmatic"])', true],
    [
      'another caller added',
      { callers: ['direct', 'programmatic'] },
      'search_notes metadata.callers: metadata changed (none → ["direct","programmatic"])',
      false,
    ],
    ['another field', { tags: ['notes'] }, 'search_notes metadata.tags: metadata changed ([] → ["notes"])', false],
    ['a new field', { defer: true }, 'search_notes metadata.defer: metadata changed (none → true)', false],
  ] as const)('%s', ([, fields, line, breaking]) => {
    const changes = declarationChanges([before], [withMetadata(fields)]);
    expect(changes.map(formatChange)).toEqual([line]);
    expect(changes[0]!.breaking).toBe(breaking);
  });
});

describe(formatChange, () => {
  it('names the tool, the place and the change', () => {
    expect(formatChange({ tool: 'add_numbers', path: '$.c', kind: 'required-parameter-added', side: 'parameters', breaking: true })).toBe(
      'add_numbers $.c: required parameter added',
    );
    expect(formatChange({ tool: 'greet', path: '$', kind: 'tool-removed', side: 'tool', breaking: true })).toBe('greet: tool removed');
    expect(formatChange({ tool: 'get_note', path: 'returns.title', kind: 'parameter-removed', side: 'returns', breaking: true })).toBe(
      'get_note returns.title: property removed',
    );
  });
});
