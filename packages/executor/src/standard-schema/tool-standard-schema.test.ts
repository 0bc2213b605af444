import { describe, expect, it } from 'vitest';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolDeclaration } from '@toolwright/schema';
import { declaration } from '../test-support/declare-tool.js';
import { parametersStandardSchema, returnsStandardSchema } from './tool-standard-schema.js';

// A tool's parameters and result as Standard Schemas: the executor's validation behind `validate`, the declaration's
// JSON Schema behind `jsonSchema`.

const search: ToolDeclaration = declaration(
  'search_notes',
  {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, default: 10 },
    filter: {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } }, 'created at': { type: 'string', format: 'date' } },
      required: [],
      additionalProperties: false,
    },
  },
  {
    required: ['query'],
    returns: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false } },
  },
);

async function validate<T>(schema: StandardSchemaV1<T>, value: unknown): Promise<StandardSchemaV1.Result<T>> {
  return schema['~standard'].validate(value);
}

describe(parametersStandardSchema, () => {
  const schema = parametersStandardSchema(search);

  it('is a Standard Schema v1 of vendor toolwright', () => {
    expect(schema['~standard']).toMatchObject({ version: 1, vendor: 'toolwright' });
  });

  it('gives back a valid value as a copy', async () => {
    const args = { query: 'beta', limit: 3, filter: { tags: ['x'] } };
    const result = await validate(schema, args);
    expect(result).toEqual({ value: args });
    expect((result as { value: unknown }).value).not.toBe(args);
  });

  it.for<[string, unknown, { message: string; path?: (string | number)[] }[]]>([
    ['a missing field', { limit: 3 }, [{ message: "missing required field 'query'", path: ['query'] }]],
    ['a wrong type', { query: 'a', limit: 'ten' }, [{ message: "'limit' must be an integer (got a string)", path: ['limit'] }]],
    ['an unsafe integer', { query: 'a', limit: 2 ** 60 }, [{ message: expect.stringContaining('safe integer'), path: ['limit'] }]],
    ['an unknown field', { query: 'a', lmit: 3 }, [{ message: "unexpected field 'lmit' (not in the tool's parameters)", path: ['lmit'] }]],
    ['a nested item', { query: 'a', filter: { tags: ['x', 7] } }, [{ message: expect.stringContaining("'filter.tags[1]'"), path: ['filter', 'tags', 1] }]],
    [
      'a key that needs quoting',
      { query: 'a', filter: { 'created at': 'soon' } },
      [{ message: expect.stringContaining('date'), path: ['filter', 'created at'] }],
    ],
    ['NaN', { query: 'a', limit: Number.NaN }, [{ message: expect.stringContaining('NaN'), path: ['limit'] }]],
    ['a Date', { query: new Date(0) }, [{ message: expect.stringContaining('Date'), path: ['query'] }]],
    ['not an object', 'query=beta', [{ message: 'the arguments must be an object (got a string)' }]],
  ])('reports %s as an issue with its path', async ([, value, issues]) => {
    const result = await validate(schema, value);
    expect(result.issues).toEqual(issues);
  });

  it('reports every problem at once', async () => {
    const result = await validate(schema, { limit: 0, extra: true });
    expect(result.issues?.map((issue) => issue.path)).toEqual([['query'], ['extra'], ['limit']]);
  });

  it.for<StandardJSONSchemaV1.Target>(['draft-2020-12', 'draft-07'])('gives the parameters schema as the JSON Schema of input and output (%s)', (target) => {
    const { jsonSchema } = schema['~standard'];
    expect(jsonSchema.input({ target })).toEqual(search.parameters);
    expect(jsonSchema.output({ target })).toEqual(search.parameters);
    expect(jsonSchema.input({ target })).not.toBe(search.parameters);
  });

  it('refuses a JSON Schema target it cannot write', () => {
    expect(() => schema['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(
      'Toolwright schemas convert to JSON Schema "draft-2020-12" and "draft-07", not "openapi-3.0"',
    );
  });
});

describe(returnsStandardSchema, () => {
  it("checks a result against the tool's returns schema", async () => {
    const schema = returnsStandardSchema(search)!;
    expect(await validate(schema, [{ id: 1 }])).toEqual({ value: [{ id: 1 }] });
    expect((await validate(schema, [{ id: 1 }, { id: 'two' }])).issues).toEqual([
      { message: 'the output[1].id must be an integer (got a string)', path: [1, 'id'] },
    ]);
    expect(schema['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toEqual(search.returns);
  });

  it('is undefined for a tool that declares no result', () => {
    expect(returnsStandardSchema(declaration('ping', {}))).toBeUndefined();
  });
});
