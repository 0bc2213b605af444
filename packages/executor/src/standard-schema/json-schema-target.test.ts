import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '@toolwright/schema';
import { jsonSchemaFor } from './json-schema-target.js';

describe(jsonSchemaFor, () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
      rest: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
      tree: { $ref: '#/$defs/Node' },
      // A computed key is an own property named __proto__, as JSON.parse makes it (a plain one sets the prototype).
      ['__proto__']: { type: 'string', default: '$defs' },
    },
    required: ['point'],
    additionalProperties: false,
    $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, additionalProperties: { $ref: '#' } } },
  };

  it('writes draft-07: definitions, and prefixItems as an items list with the rest in additionalItems', () => {
    const draft07 = jsonSchemaFor(schema, 'draft-07');
    expect(draft07).toEqual({
      type: 'object',
      properties: {
        point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false },
        rest: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } },
        tree: { $ref: '#/definitions/Node' },
        ['__proto__']: { type: 'string', default: '$defs' },
      },
      required: ['point'],
      additionalProperties: false,
      definitions: {
        Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/Node' } } }, additionalProperties: { $ref: '#' } },
      },
    });
    const properties = (draft07 as { properties: object }).properties;
    expect(Object.keys(properties)).toContain('__proto__');
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('gives draft 2020-12 as written, as a copy', () => {
    const copy = jsonSchemaFor(schema, 'draft-2020-12');
    expect(copy).toEqual(schema);
    expect(copy).not.toBe(schema);
  });
});
