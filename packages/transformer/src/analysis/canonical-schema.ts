import { JSON_SCHEMA_KEYWORD_ORDER, type JsonSchema } from '@toolwright/schema';

const KEYWORD_RANK = new Map<string, number>(JSON_SCHEMA_KEYWORD_ORDER.map((key, index) => [key, index]));
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties']);

/** Canonical forms of frozen schemas (the schema cache's, shared by many tools), themselves frozen. */
const canonicalOfFrozen = new WeakMap<JsonSchema, JsonSchema>();

/**
 * Rewrites a schema with keywords in one fixed order at every level, so emitted files diff cleanly.
 * Property order is kept (it is the declaration order); `$defs` are sorted by name; keys of no keyword come
 * last, by name, and keys set to `undefined` are left out. A schema already in that form is returned as it is
 * (not copied). A frozen schema is rewritten once, and its canonical form (frozen too) is shared by every
 * schema that contains it.
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
  const input = schema as Record<string, unknown>;
  const own = Object.keys(input);
  // Mappers mostly build schemas in canonical order already: such a schema whose children are canonical too is
  // its own canonical form (no copy). The check walks the keys once; any other schema is rebuilt below.
  let rank = -1;
  let same = true;
  let children: Map<string, unknown> | undefined;
  for (const key of own) {
    const next = KEYWORD_RANK.get(key);
    const value = input[key];
    if (next === undefined || next <= rank || value === undefined) {
      same = false;
      break;
    }
    rank = next;
    const child = canonicalChild(key, value);
    if (child !== value) {
      same = false;
      (children ??= new Map()).set(key, child);
    }
  }
  if (same) return schema;
  const known = own.filter((key) => KEYWORD_RANK.has(key)).sort((a, b) => KEYWORD_RANK.get(a)! - KEYWORD_RANK.get(b)!);
  const keys = known.length === own.length ? known : [...known, ...own.filter((key) => !KEYWORD_RANK.has(key)).sort()];
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    const value = input[key];
    if (value === undefined) continue;
    result[key] = children?.has(key) ? children.get(key) : canonicalChild(key, value);
  }
  return result;
}

/** The canonical form of the value of `key` in a schema: the value itself when it is canonical already. */
function canonicalChild(key: string, value: unknown): unknown {
  if (SCHEMA_MAPS.has(key)) {
    const entries = Object.entries(value as Record<string, JsonSchema>);
    let changed = false;
    if (key === '$defs') {
      for (let i = 1; i < entries.length && !changed; i++) changed = entries[i - 1]![0] > entries[i]![0];
      if (changed) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
    const rewritten = entries.map(([name, child]): [string, JsonSchema] => {
      const canonical = canonicalSchema(child);
      if (canonical !== child) changed = true;
      return [name, canonical];
    });
    return changed ? Object.fromEntries(rewritten) : value;
  }
  if (SCHEMA_LISTS.has(key)) {
    const list = value as JsonSchema[];
    const rewritten = list.map(canonicalSchema);
    return rewritten.some((child, index) => child !== list[index]) ? rewritten : value;
  }
  if (SCHEMA_VALUES.has(key) && typeof value === 'object' && value !== null) return canonicalSchema(value);
  return value;
}
