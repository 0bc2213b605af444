import { JSON_SCHEMA_KEYWORD_ORDER, type JsonSchema } from '@toolwright/schema';

const KEYWORD_RANK = new Map<string, number>(JSON_SCHEMA_KEYWORD_ORDER.map((key, index) => [key, index]));
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties']);

/** Canonical forms of frozen schemas (the schema cache's, shared by many tools), themselves frozen. */
const canonicalOfFrozen = new WeakMap<JsonSchema, JsonSchema>();

/**
 * Rewrites a schema with keywords in one fixed order at every level, so emitted files diff cleanly.
 * Property order is kept (it is the declaration order); `$defs` are sorted by name. A frozen schema
 * is rewritten once, and its canonical form (frozen too) is shared by every schema that contains it.
 */
export function canonicalSchema(schema: JsonSchema): JsonSchema {
  if (!Object.isFrozen(schema)) return rewrite(schema);
  let known = canonicalOfFrozen.get(schema);
  if (!known) canonicalOfFrozen.set(schema, (known = deepFreeze(rewrite(schema))));
  return known;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function rewrite(schema: JsonSchema): JsonSchema {
  const result: Record<string, unknown> = {};
  const input = schema as Record<string, unknown>;
  const own = Object.keys(input);
  const known = own.filter((key) => KEYWORD_RANK.has(key)).sort((a, b) => KEYWORD_RANK.get(a)! - KEYWORD_RANK.get(b)!);
  const keys = known.length === own.length ? known : [...known, ...own.filter((key) => !KEYWORD_RANK.has(key)).sort()];
  for (const key of keys) {
    const value = input[key];
    if (value === undefined) continue;
    if (SCHEMA_MAPS.has(key)) {
      const entries = Object.entries(value as Record<string, JsonSchema>);
      if (key === '$defs') entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      result[key] = Object.fromEntries(entries.map(([name, child]) => [name, canonicalSchema(child)]));
    } else if (SCHEMA_LISTS.has(key)) {
      result[key] = (value as JsonSchema[]).map(canonicalSchema);
    } else if (SCHEMA_VALUES.has(key) && typeof value === 'object' && value !== null) {
      result[key] = canonicalSchema(value);
    } else {
      result[key] = value;
    }
  }
  return result;
}
