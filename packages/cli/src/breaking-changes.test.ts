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

describe(formatChange, () => {
  it('names the tool, the place and the change', () => {
    expect(formatChange({ tool: 'add_numbers', path: '$.c', kind: 'required-parameter-added', breaking: true })).toBe(
      'add_numbers $.c: required parameter added',
    );
    expect(formatChange({ tool: 'greet', path: '$', kind: 'tool-removed', breaking: true })).toBe('greet: tool removed');
  });
});
