import { SAFE_INTEGER_KEYWORD } from './safe-integer-schema.js';

/**
 * Whether a schema is valid JSON Schema 2020-12 by a walk of its keywords, without AJV's meta-schema validator
 * (compiling it costs ~140 ms, a third of a `toolwright call`). Only `true` is a verdict: every keyword must be one
 * this walk knows, with a value of the form the meta-schema requires; anything else (an unknown keyword, `$id`,
 * `$dynamicRef`, a `$ref` with characters beyond a plain JSON pointer, nesting past 64 levels) answers `false`, and
 * the caller asks the meta-schema. The schemas `@tool` generates answer `true`.
 * @example isWellFormedSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }) // true
 * @example isWellFormedSchema({ type: 'text' }) // false: not a JSON type (the meta-schema says why)
 */
export function isWellFormedSchema(schema: unknown): boolean {
  return isSchema(schema, 0);
}

const MAX_DEPTH = 64;
const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
/** A `$ref` that is a JSON pointer into the same document, of characters a URI fragment holds as they are. */
const PLAIN_REF = /^#(?:\/[A-Za-z0-9\-._~$]+)*$/;

type Check = (value: unknown, depth: number) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isCount: Check = (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isAny: Check = () => true;
const isSchemaList: Check = (value, depth) => Array.isArray(value) && value.length > 0 && everyItem(value, (item) => isSchema(item, depth + 1));
const isSchemaMap: Check = (value, depth) => isObject(value) && Object.values(value).every((item) => isSchema(item, depth + 1));
const isChild: Check = (value, depth) => isSchema(value, depth + 1);
const isUniqueStrings = (value: unknown): boolean =>
  Array.isArray(value) && everyItem(value, (item) => typeof item === 'string') && new Set(value).size === value.length;

/** The keywords this walk knows, each with the form the 2020-12 meta-schema requires of its value. */
const KEYWORDS: Record<string, Check> = {
  // applicator
  properties: isSchemaMap,
  $defs: isSchemaMap,
  dependentSchemas: isSchemaMap,
  patternProperties: isSchemaMap,
  additionalProperties: isChild,
  items: isChild,
  contains: isChild,
  not: isChild,
  propertyNames: isChild,
  if: isChild,
  then: isChild,
  else: isChild,
  unevaluatedProperties: isChild,
  unevaluatedItems: isChild,
  anyOf: isSchemaList,
  oneOf: isSchemaList,
  allOf: isSchemaList,
  prefixItems: isSchemaList,
  // validation
  type: (value) =>
    typeof value === 'string'
      ? TYPES.has(value)
      : Array.isArray(value) && value.length > 0 && isUniqueStrings(value) && everyItem(value, (t) => TYPES.has(t as string)),
  enum: (value) => Array.isArray(value),
  const: isAny,
  required: isUniqueStrings,
  dependentRequired: (value) => isObject(value) && Object.values(value).every(isUniqueStrings),
  minimum: isNumber,
  maximum: isNumber,
  exclusiveMinimum: isNumber,
  exclusiveMaximum: isNumber,
  multipleOf: (value) => isNumber(value, 0) && (value as number) > 0,
  minLength: isCount,
  maxLength: isCount,
  minItems: isCount,
  maxItems: isCount,
  minProperties: isCount,
  maxProperties: isCount,
  minContains: isCount,
  maxContains: isCount,
  uniqueItems: isBoolean,
  // A pattern is compiled by AJV as the schema is (a wrong one fails there, as the meta-schema does not look).
  pattern: isString,
  // format, content and meta-data
  format: isString,
  contentEncoding: isString,
  contentMediaType: isString,
  title: isString,
  description: isString,
  $comment: isString,
  default: isAny,
  examples: (value) => Array.isArray(value),
  deprecated: isBoolean,
  readOnly: isBoolean,
  writeOnly: isBoolean,
  // core: a reference into this document only
  $ref: (value) => typeof value === 'string' && PLAIN_REF.test(value),
  // the executor's own keyword (withSafeIntegers), which no meta-schema describes
  [SAFE_INTEGER_KEYWORD]: isBoolean,
};

function isSchema(value: unknown, depth: number): boolean {
  if (typeof value === 'boolean') return true;
  if (!isObject(value) || depth > MAX_DEPTH) return false;
  for (const key of Object.keys(value)) {
    const check = Object.hasOwn(KEYWORDS, key) ? KEYWORDS[key] : undefined;
    if (check === undefined || !check(value[key], depth)) return false;
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether every item holds, holes included (`every` skips them; a hole is `undefined`, which no keyword takes). */
function everyItem(list: readonly unknown[], holds: (item: unknown) => boolean): boolean {
  for (let i = 0; i < list.length; i++) if (!holds(list[i])) return false;
  return true;
}
