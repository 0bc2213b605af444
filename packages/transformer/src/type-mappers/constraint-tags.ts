import type { JsonSchema, JsonSchemaTypeName, JsonValue } from '@toolwright/schema';
import type { DIAGNOSTICS } from '../diagnostics.js';
import type { DocInfo, DocTag } from '../jsdoc-reader.js';
import type { MapContext } from './type-mapper.js';

type Kind = 'number' | 'string' | 'array' | 'any';

type TagProblem = keyof (typeof DIAGNOSTICS)['invalidJsDocTag']['reasons'];
type Fail = (problem: TagProblem, args?: Record<string, string>) => void;

interface TagRule {
  kind: Kind;
  apply(schema: JsonSchema, tag: DocTag, fail: Fail): void;
}

const numeric = (key: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf'): TagRule => ({
  kind: 'number',
  apply: (schema, tag, fail) => {
    const value = Number(tag.text);
    if (tag.text === '' || !Number.isFinite(value)) return fail('notNumber', { value: tag.text });
    if (key === 'multipleOf' && value <= 0) return fail('notPositive');
    schema[key] = value;
  },
});

const count = (key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems', kind: Kind): TagRule => ({
  kind,
  apply: (schema, tag, fail) => {
    const value = Number(tag.text);
    if (!/^\d+$/.test(tag.text)) return fail('notCount', { value: tag.text });
    schema[key] = value;
  },
});

/** JSDoc tags that refine a schema, by tag name. Unknown tags are ignored (they are documentation). */
const TAG_RULES: Record<string, TagRule> = {
  minimum: numeric('minimum'),
  maximum: numeric('maximum'),
  exclusiveMinimum: numeric('exclusiveMinimum'),
  exclusiveMaximum: numeric('exclusiveMaximum'),
  multipleOf: numeric('multipleOf'),
  minLength: count('minLength', 'string'),
  maxLength: count('maxLength', 'string'),
  minItems: count('minItems', 'array'),
  maxItems: count('maxItems', 'array'),
  pattern: {
    kind: 'string',
    apply: (schema, tag, fail) => {
      try {
        new RegExp(tag.text, 'u');
      } catch (error) {
        return fail('invalidPattern', { error: (error as Error).message });
      }
      if (tag.text === '') return fail('emptyPattern');
      schema.pattern = tag.text;
    },
  },
  format: {
    kind: 'string',
    apply: (schema, tag, fail) => {
      if (!/^[a-z][a-z0-9-]*$/i.test(tag.text)) return fail('notFormat', { value: tag.text });
      schema.format = tag.text;
    },
  },
  uniqueItems: {
    kind: 'array',
    apply: (schema, tag, fail) => {
      if (tag.text !== '' && tag.text !== 'true' && tag.text !== 'false') return fail('notFlag', { value: tag.text });
      schema.uniqueItems = tag.text !== 'false';
    },
  },
  integer: {
    kind: 'number',
    apply: (schema) => setInteger(schema),
  },
  type: {
    kind: 'any',
    apply: (schema, tag, fail) => {
      if (tag.text !== 'integer') return;
      if (!typesOf(schema).includes('number')) return fail('integerOnNonNumber');
      setInteger(schema);
    },
  },
  default: {
    kind: 'any',
    apply: (schema, tag) => {
      schema.default = parseTagValue(tag.text, schema);
    },
  },
  example: {
    kind: 'any',
    apply: (schema, tag) => {
      schema.examples = [...(schema.examples ?? []), parseTagValue(tag.text, schema)];
    },
  },
  deprecated: {
    kind: 'any',
    apply: (schema) => {
      schema.deprecated = true;
    },
  },
  // Nullability comes from the type (`T | null`), which the tool's code sees too: the tag is only
  // accepted where the type already admits null, never adds null on its own.
  nullable: {
    kind: 'any',
    apply: (schema, tag, fail) => {
      if (tag.text !== '' && tag.text !== 'true' && tag.text !== 'false') return fail('notFlag', { value: tag.text });
      if (tag.text !== 'false' && !admitsNull(schema)) fail('notNullable', { actual: describeSchema(schema) });
    },
  },
  // Other generators' `@ref` names a shared definition; ours inline named types (see DefinitionRegistry).
  ref: {
    kind: 'any',
    apply: (_schema, _tag, fail) => fail('refUnsupported'),
  },
};

/**
 * Applies a declaration's JSDoc to its schema: the summary becomes `description` (unless `keepDescription`),
 * constraint tags become keywords. A tag that does not fit the type is reported at the tag.
 * @example  /** Lines to read. @minimum 1 @maximum 2000 *\/ limit?: number
 */
export function applyDocTags(
  schema: JsonSchema,
  docs: DocInfo,
  ctx: Pick<MapContext, 'report' | 'position'>,
  options: { description?: boolean } = {},
): JsonSchema {
  const result: JsonSchema = { ...schema };
  if (options.description !== false && docs.summary) result.description = docs.summary;
  for (const tag of docs.tags) {
    const rule = TAG_RULES[tag.name];
    if (!rule) continue;
    const fail: Fail = (problem, args = {}) =>
      ctx.report(`invalidJsDocTag.${problem}`, { tag: tag.name, path: ctx.position.path || 'returns', ...args }, tag.node);
    if (!fits(result, rule.kind)) {
      const types = typesOf(result);
      if (types.length > 0) fail('wrongType', { kind: rule.kind, actual: types.join(' | ') });
      else fail(result.$ref ? 'wrongReference' : result.anyOf ? 'wrongUnion' : 'wrongAnyJson', { kind: rule.kind });
      continue;
    }
    rule.apply(result, tag, fail);
  }
  return result;
}

function admitsNull(schema: JsonSchema): boolean {
  if (schema.const !== undefined) return schema.const === null;
  if (schema.enum) return schema.enum.includes(null);
  if (schema.anyOf) return schema.anyOf.some(admitsNull);
  if (schema.$ref) return false;
  return schema.type === undefined || typesOf(schema).includes('null');
}

function describeSchema(schema: JsonSchema): string {
  const types = typesOf(schema);
  if (types.length > 0) return `type ${types.join(' | ')}`;
  if (schema.const !== undefined) return `the constant ${JSON.stringify(schema.const)}`;
  if (schema.enum) return `the values ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  return schema.$ref ? `the reference ${schema.$ref}` : 'the union';
}

function setInteger(schema: JsonSchema): void {
  if (schema.type === 'number') schema.type = 'integer';
  else if (Array.isArray(schema.type)) schema.type = schema.type.map((t) => (t === 'number' ? 'integer' : t));
}

function typesOf(schema: JsonSchema): JsonSchemaTypeName[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function fits(schema: JsonSchema, kind: Kind): boolean {
  if (kind === 'any') return true;
  const types = typesOf(schema);
  if (kind === 'number') return types.includes('number') || types.includes('integer');
  return types.includes(kind);
}

/** Tag values are JSON when they parse as JSON; otherwise a string (so `@default fast` works). */
function parseTagValue(text: string, schema: JsonSchema): JsonValue {
  if (typesOf(schema).length === 1 && schema.type === 'string' && !/^".*"$/s.test(text)) return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
