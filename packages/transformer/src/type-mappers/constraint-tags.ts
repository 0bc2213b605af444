import type { JsonSchema, JsonSchemaTypeName, JsonValue } from '@toolwright/schema';
import type { DocInfo, DocTag } from '../analysis/jsdoc-reader.js';
import type { MapContext } from './type-mapper.js';

type Kind = 'number' | 'string' | 'array' | 'any';

interface TagRule {
  kind: Kind;
  apply(schema: JsonSchema, tag: DocTag, fail: (problem: string, hint: string) => void): void;
}

const numeric = (key: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf'): TagRule => ({
  kind: 'number',
  apply: (schema, tag, fail) => {
    const value = Number(tag.text);
    if (tag.text === '' || !Number.isFinite(value)) return fail(`needs a number, got '${tag.text}'`, `Write it as \`@${tag.name} 10\`.`);
    if (key === 'multipleOf' && value <= 0) return fail('needs a number greater than 0', 'Write it as `@multipleOf 0.5`.');
    schema[key] = value;
  },
});

const count = (key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems', kind: Kind): TagRule => ({
  kind,
  apply: (schema, tag, fail) => {
    const value = Number(tag.text);
    if (!/^\d+$/.test(tag.text)) return fail(`needs a non-negative integer, got '${tag.text}'`, `Write it as \`@${tag.name} 1\`.`);
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
        return fail(`is not a valid regular expression: ${(error as Error).message}`, 'Write an ECMAScript regular expression without slashes.');
      }
      if (tag.text === '') return fail('needs a pattern', 'Write it as `@pattern ^[a-z]+$`.');
      schema.pattern = tag.text;
    },
  },
  format: {
    kind: 'string',
    apply: (schema, tag, fail) => {
      if (!/^[a-z][a-z0-9-]*$/i.test(tag.text)) return fail(`needs a format name, got '${tag.text}'`, 'Write it as `@format email` (date-time, uri, uuid, ...).');
      schema.format = tag.text;
    },
  },
  uniqueItems: {
    kind: 'array',
    apply: (schema, tag, fail) => {
      if (tag.text !== '' && tag.text !== 'true' && tag.text !== 'false') return fail(`takes no value or true/false, got '${tag.text}'`, 'Write `@uniqueItems`.');
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
      if (!typesOf(schema).includes('number')) return fail('integer applies to number values', 'Use `@type integer` on a number.');
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
};

/**
 * Applies a declaration's JSDoc to its schema: the summary becomes `description` (unless `keepDescription`),
 * constraint tags become keywords. A tag that does not fit the type is reported at the tag.
 * @example  /** Lines to read. @minimum 1 @maximum 2000 *\/ limit?: number
 */
export function applyDocTags(schema: JsonSchema, docs: DocInfo, ctx: Pick<MapContext, 'report' | 'position'>, options: { description?: boolean } = {}): JsonSchema {
  const result: JsonSchema = { ...schema };
  if (options.description !== false && docs.summary) result.description = docs.summary;
  for (const tag of docs.tags) {
    const rule = TAG_RULES[tag.name];
    if (!rule) continue;
    const fail = (problem: string, hint: string) =>
      ctx.report('invalidJsDocTag', { tag: tag.name, path: ctx.position.path || 'returns', problem, hint }, tag.node);
    if (!fits(result, rule.kind)) {
      fail(`applies to ${rule.kind} values, but this is ${describe(result)}`, `Remove @${tag.name} or move it to a ${rule.kind} property.`);
      continue;
    }
    rule.apply(result, tag, fail);
  }
  return result;
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

function describe(schema: JsonSchema): string {
  const types = typesOf(schema);
  if (types.length > 0) return `of type ${types.join(' | ')}`;
  return schema.$ref ? 'a reference' : 'a union';
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
