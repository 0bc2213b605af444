import type { JsonSchema } from '@toolwright/schema';
import { describe, expect, it } from 'vitest';
import { canonicalSchema } from '../src/analysis/canonical-schema.js';

describe('canonicalSchema', () => {
  it('puts keywords in their fixed order at every level, keeps property order and sorts $defs by name', () => {
    const schema = {
      additionalProperties: false,
      properties: { zeta: { description: 'z', type: 'string' }, alpha: { items: { type: 'number' }, type: 'array' } },
      type: 'object',
      $defs: { Tree: { type: 'object' }, Node: { required: ['id'], type: 'object' } },
    } as JsonSchema;
    const canonical = canonicalSchema(schema);
    expect(JSON.stringify(canonical)).toBe(
      JSON.stringify({
        type: 'object',
        properties: { zeta: { type: 'string', description: 'z' }, alpha: { type: 'array', items: { type: 'number' } } },
        additionalProperties: false,
        $defs: { Node: { type: 'object', required: ['id'] }, Tree: { type: 'object' } },
      }),
    );
    // The input is left as it was.
    expect(Object.keys(schema)).toEqual(['additionalProperties', 'properties', 'type', '$defs']);
  });

  it('returns a schema already in canonical form as it is, and copies only the levels that change', () => {
    const inOrder = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } as JsonSchema;
    expect(canonicalSchema(inOrder)).toBe(inOrder);
    const child = { type: 'string', description: 'kept' } as JsonSchema;
    const parent = { anyOf: [child, { description: 'moved', type: 'number' }] } as JsonSchema;
    const canonical = canonicalSchema(parent);
    expect(canonical).not.toBe(parent);
    expect(canonical.anyOf![0]).toBe(child);
    expect(Object.keys(canonical.anyOf![1]!)).toEqual(['type', 'description']);
  });

  it('leaves out keys set to undefined and puts keys of no keyword last, by name', () => {
    const schema = { zz: 1, type: 'string', aa: 2, description: undefined } as unknown as JsonSchema;
    expect(Object.entries(canonicalSchema(schema))).toEqual([
      ['type', 'string'],
      ['aa', 2],
      ['zz', 1],
    ]);
  });

  it('rewrites a frozen schema once and shares its frozen canonical form', () => {
    const frozen = Object.freeze({ description: 'd', type: 'string' }) as JsonSchema;
    const first = canonicalSchema(frozen);
    expect(Object.keys(first)).toEqual(['type', 'description']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(canonicalSchema(frozen)).toBe(first);
  });
});
