import type { JsonSchema } from '@toolwright/schema';

/** The keyword `withSafeIntegers` adds; `SchemaValidator` defines it (`Number.isSafeInteger`). */
export const SAFE_INTEGER_KEYWORD = 'x-safe-integer';

/** Keywords whose values are data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);

/**
 * A copy of a schema in which every `integer` also requires a safe integer (|n| ≤ 2^53 − 1): JSON
 * Schema's `integer` accepts 1e300, whose digits no JavaScript tool can hold. A type that also allows
 * `number` is left alone (a large float is a number). Unchanged subschemas are shared, not copied.
 * @example withSafeIntegers({ type: 'integer', minimum: 1 }) // { type: 'integer', minimum: 1, 'x-safe-integer': true }
 */
export function withSafeIntegers(schema: JsonSchema): JsonSchema {
  return rewrite(schema) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) {
    const items = node.map(rewrite);
    return items.some((item, i) => item !== node[i]) ? items : node;
  }
  if (typeof node !== 'object' || node === null) return node;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key) || typeof value !== 'object' || value === null) continue;
    const next = rewrite(value);
    if (next !== value) (copy ??= { ...node })[key] = next;
  }
  const type = (node as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer') && !types.includes('number')) (copy ??= { ...node })[SAFE_INTEGER_KEYWORD] = true;
  return copy ?? node;
}
