import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '@toolwright/schema';
import { SAFE_INTEGER_KEYWORD, withSafeIntegers } from './safe-integer-schema.js';
import { SchemaValidator } from './schema-validator.js';
import { isWellFormedSchema } from './well-formed-schema.js';

/** The meta-schema's verdict, with the options and formats SchemaValidator's AJV has. */
const metaAjv = new Ajv2020({ strict: false, strictNumbers: true, validateFormats: true, allErrors: true });
addFormats(metaAjv);
const metaValid = (schema: unknown) => metaAjv.validateSchema(schema as object) === true;

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
const anyJson = fc.jsonValue({ maxDepth: 2 });
/** A keyword's value, right or wrong: what a hand-written or foreign declaration may hold. */
const anyValue = fc.oneof(
  anyJson,
  fc.constantFrom(
    TYPES[0],
    'text',
    'int',
    [],
    ['string', 'string'],
    ['string', 'null'],
    -1,
    0.5,
    3,
    NaN,
    Infinity,
    '^a\\Z',
    '(',
    '#/$defs/A',
    '#/$defs/A B',
    'x',
  ),
);
/** Schemas of the forms the meta-schema admits, as `@tool` and careful hands write them. */
function goodSchemas(): fc.Arbitrary<unknown> {
  return fc.letrec<{ schema: unknown }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.boolean(),
      fc.record(
        {
          type: fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1 })),
          properties: fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 3 }),
          items: tie('schema'),
          prefixItems: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
          anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          not: tie('schema'),
          enum: fc.array(anyJson, { maxLength: 3 }),
          const: anyJson,
          minimum: fc.double({ noNaN: true, noDefaultInfinity: true }),
          exclusiveMaximum: fc.integer(),
          multipleOf: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
          maxLength: fc.nat(),
          minItems: fc.nat(),
          uniqueItems: fc.boolean(),
          pattern: fc.constantFrom('^[a-z]+$', '\\d{3}', '.*'),
          patternProperties: fc.dictionary(fc.constantFrom('^a', 'b$'), tie('schema'), { maxKeys: 2 }),
          format: fc.constantFrom('date-time', 'email', 'uri', 'anything'),
          description: fc.string(),
          deprecated: fc.boolean(),
          default: anyJson,
          examples: fc.array(anyJson, { maxLength: 2 }),
          additionalProperties: tie('schema'),
          $defs: fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 2 }),
          $ref: fc.constantFrom('#', '#/$defs/Node', '#/$defs/a.b~0'),
          [SAFE_INTEGER_KEYWORD]: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    ),
  })).schema;
}

const KEYWORDS = [
  ...['type', 'properties', 'required', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const', 'minimum', 'maximum'],
  ...['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'uniqueItems'],
  ...['pattern', 'patternProperties', 'format', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'additionalProperties'],
  ...['$defs', '$ref', '$comment', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'contains', 'minContains', 'propertyNames'],
  ...['unevaluatedProperties', 'contentMediaType', SAFE_INTEGER_KEYWORD, '$id', '$anchor', '$dynamicRef', '$schema', 'x-vendor', '__proto__'],
];

/**
 * A schema of the admitted forms with one keyword of one of its schemas set to any value, right or wrong (known
 * keywords and others): what a hand-written or foreign declaration may hold.
 */
const nearSchemas = fc.tuple(goodSchemas(), fc.nat(), fc.constantFrom(...KEYWORDS), anyValue).map(([schema, pick, keyword, value]) => {
  const copy = structuredClone(schema);
  const nodes: Record<string, unknown>[] = [];
  const collect = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (!Array.isArray(node)) nodes.push(node as Record<string, unknown>);
    for (const child of Object.values(node)) collect(child);
  };
  collect(copy);
  if (nodes.length === 0) return { [keyword]: value };
  Object.defineProperty(nodes[pick % nodes.length], keyword, { value, enumerable: true, configurable: true, writable: true });
  return copy;
});

describe('a schema judged well formed without the meta-schema', () => {
  it('is one the meta-schema accepts, whatever keywords and values it holds (property)', () => {
    let judged = 0;
    let runs = 0;
    fc.assert(
      fc.property(nearSchemas, (schema) => {
        runs++;
        if (!isWellFormedSchema(schema)) return;
        judged++;
        expect(metaValid(schema), JSON.stringify(schema)).toBe(true);
      }),
      { numRuns: 800 },
    );
    // The walk says yes often enough for the property to mean something.
    // (A run stopped early on a busy machine has made fewer cases: the share is what is held.)
    expect(judged).toBeGreaterThan(runs / 10);
  });

  it('covers the forms the meta-schema admits, so the meta-schema is rarely needed (property)', () => {
    fc.assert(
      fc.property(goodSchemas(), (schema) => {
        expect(metaValid(schema)).toBe(true);
        expect(isWellFormedSchema(schema), JSON.stringify(schema)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('covers every schema the transformer generates in its fixtures, as the executor validates them', () => {
    const root = path.resolve(import.meta.dirname, '../../../transformer/fixtures');
    const schemas: unknown[] = [];
    for (const area of fs.readdirSync(root)) {
      if (!fs.statSync(path.join(root, area)).isDirectory()) continue;
      for (const name of fs.readdirSync(path.join(root, area))) {
        const file = path.join(root, area, name, 'expected.json');
        if (!fs.existsSync(file)) continue;
        for (const declaration of JSON.parse(fs.readFileSync(file, 'utf8')) as { parameters?: JsonSchema; returns?: JsonSchema }[])
          for (const schema of [declaration.parameters, declaration.returns]) if (schema) schemas.push(withSafeIntegers(schema));
      }
    }
    expect(schemas.length).toBeGreaterThan(150);
    expect(schemas.filter((schema) => !isWellFormedSchema(schema))).toEqual([]);
  });

  it('leaves to the meta-schema what it does not know: other keywords, identifiers, references elsewhere, deep nesting', () => {
    expect(isWellFormedSchema({ type: 'string', 'x-vendor': 1 })).toBe(false);
    expect(isWellFormedSchema({ $id: 'https://example.com/s', type: 'string' })).toBe(false);
    expect(isWellFormedSchema({ $ref: 'other.json#/a' })).toBe(false);
    // Arrays with holes (built in JavaScript, never parsed from JSON): a hole is no schema, name or type.
    for (const holed of [{ anyOf: new Array(1) }, { required: new Array(2) }, { type: Object.assign(new Array(2), { 1: 'string' }) }]) {
      expect(isWellFormedSchema(holed)).toBe(false);
      expect(metaValid(holed)).toBe(false);
    }
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { items: deep };
    expect(isWellFormedSchema(deep)).toBe(false);
    expect(metaValid(deep)).toBe(true);
  });
});

describe('SchemaValidator on a schema that is not valid JSON Schema', () => {
  it('refuses it as AJV would, saying why, and compiles nothing', () => {
    const validator = new SchemaValidator();
    expect(() => validator.validate({ type: 'text' } as unknown as JsonSchema, 'a')).toThrow(
      /^schema is invalid: data\/type must be equal to one of the allowed values/,
    );
    expect(() => validator.validate({ type: 'string', minLength: -1 } as JsonSchema, 'a')).toThrow(/^schema is invalid: data\/minLength must be >= 0/);
    // A keyword the walk leaves alone is checked by AJV as ever: an anchor that is no name.
    expect(() => validator.validate({ type: 'string', $anchor: '1x' } as unknown as JsonSchema, 'a')).toThrow(
      /^schema is invalid: data\/\$anchor must match pattern/,
    );
    expect(() => validator.validate({ type: 'string', pattern: '(' } as JsonSchema, 'a')).toThrow(/^Invalid regular expression/);
  });

  it('validates by a schema with keywords the walk leaves to the meta-schema, as before', () => {
    const validator = new SchemaValidator();
    const schema = {
      $id: 'https://example.com/p',
      type: 'object',
      properties: { n: { type: 'integer', 'x-vendor': true } },
      required: ['n'],
    } as unknown as JsonSchema;
    expect(validator.validate(schema, { n: 1 })).toEqual([]);
    expect(validator.validate(schema, { n: 'one' })).toMatchObject([{ path: '$.n', kind: 'type' }]);
  });
});
