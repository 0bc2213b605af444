import { isDeepStrictEqual } from 'node:util';
import type { JsonSchema, JsonValue, ParametersSchema } from '@toolwright/schema';

/** What a lowering did to one place of the schema; `setting`: a tool setting (`keyword`) the dialect's entry does not carry. */
export type LossKind = 'optional-nullable' | 'dropped' | 'changed' | 'reshaped' | 'inlined-ref' | 'recursion-in-text' | 'setting';

/** One thing the provider's schema no longer says the way the source does. */
export interface Loss {
  /** Where, from the parameters: `$.account.login`, `$.tags[]`; `(tool)` for a tool setting. */
  path: string;
  kind: LossKind;
  /** The source keyword that was lost or changed (for `dropped`/`changed`). */
  keyword?: string;
  /** The lowered schema's description at that place differs from the source's: the loss is told in words there. */
  described: boolean;
  /**
   * The executor still enforces it: it validates every call against the source schema (after the dialect's
   * decoding), so only annotations (default, examples, title, deprecated) are lost for good.
   */
  revalidated: boolean;
}

/** Keywords that only annotate: a model that does not see them is not held to anything the executor checks. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['default', 'examples', 'deprecated', 'title']);
const KEYWORDS: readonly (keyof JsonSchema)[] = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
  'const',
  'prefixItems',
  'additionalProperties',
  'default',
  'examples',
  'deprecated',
  'title',
];
/** Limits Gemini writes as strings (`"maxItems": "3"`). */
const STRING_LIMITS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * What lowering `source` to `lowered` (one dialect's parameters schema, as its exporter wrote it) lost, found by
 * walking both side by side: a keyword the source has and the lowered schema lacks or changed, an optional
 * property made required and nullable, a reshaped value (a map as a list of entries, an open object as JSON text),
 * a `$ref` inlined, a recursive type described in words. It compares the schemas themselves, so it stays true when
 * an exporter changes. Gemini's spelling (upper-case type names, `nullable`, string limits, `example`) is read as
 * the JSON Schema it stands for.
 */
export function loweringLosses(source: ParametersSchema, lowered: JsonSchema): Loss[] {
  const losses = new Map<string, Loss>();
  const defs = source.$defs ?? {};
  const add = (loss: Omit<Loss, 'revalidated'>) => {
    const key = `${loss.path} ${loss.kind} ${loss.keyword ?? ''}`;
    if (!losses.has(key)) losses.set(key, { ...loss, revalidated: !ANNOTATIONS.has(loss.keyword ?? '') });
  };

  const compare = (src: JsonSchema, rawLow: JsonSchema, path: string, stack: readonly string[]): void => {
    const low = view(rawLow);
    const described = (low.description ?? '') !== (src.description ?? '');
    if (src.$ref !== undefined) {
      if (low.$ref === src.$ref) return; // kept: its definition is compared once, under $defs
      const name = src.$ref.replace(/^#\/\$defs\//, '');
      const target = defs[name];
      if (!target) return;
      if (stack.includes(name)) {
        if (!low.properties) add({ path, kind: 'recursion-in-text', keyword: name, described });
        return;
      }
      add({ path, kind: 'inlined-ref', keyword: name, described: false });
      compare({ ...target, ...(src.description !== undefined ? { description: src.description } : {}) }, rawLow, path, [...stack, name]);
      return;
    }
    if (isDeepStrictEqual(src, rawLow)) return;
    const target = acceptsNull(src) ? low : withoutNull(low);
    const srcTypes = typesOf(src);
    const lowTypes = typesOf(target);
    if (srcTypes.length > 0 && lowTypes.length > 0 && !srcTypes.every((t) => lowTypes.includes(t) || (t === 'integer' && lowTypes.includes('number')))) {
      // Only the number kind differs (Gemini gives a number constant the type of its value): the same shape, continue.
      const numeric = (t: string) => (t === 'integer' ? 'number' : t);
      const change = `${srcTypes.join('|')} as ${lowTypes.join('|')}`;
      if (!srcTypes.every((t) => lowTypes.map(numeric).includes(numeric(t)))) return add({ path, kind: 'reshaped', keyword: change, described });
      add({ path, kind: 'changed', keyword: 'type', described });
    }
    for (const keyword of KEYWORDS) {
      const value = src[keyword];
      if (value === undefined) continue;
      if (keyword === 'const' && isDeepStrictEqual(target.enum, [value])) continue;
      if (keyword === 'additionalProperties' && value !== false && src.properties && Object.keys(src.properties).length > 0) continue;
      const kept = target[keyword];
      if (isDeepStrictEqual(kept, value)) continue;
      add({ path, kind: kept === undefined ? 'dropped' : 'changed', keyword, described });
    }
    if (src.anyOf) {
      const branches = src.anyOf.filter((b) => !isNull(b));
      const lowBranches = (target.anyOf ?? [target]).filter((b) => !isNull(b));
      if (branches.length === lowBranches.length) branches.forEach((b, i) => compare(b, lowBranches[i]!, `${path}|${i}`, stack));
      else add({ path, kind: 'changed', keyword: 'anyOf', described });
    }
    if (src.items && !src.prefixItems && target.items) compare(src.items, target.items, `${path}[]`, stack);
    if (src.properties) {
      const required = new Set(src.required ?? []);
      const lowRequired = new Set(target.required ?? []);
      for (const [name, property] of Object.entries(src.properties)) {
        const at = `${path}.${name}`;
        const lowProperty = target.properties?.[name];
        if (lowProperty === undefined) {
          add({ path: at, kind: 'dropped', keyword: 'property', described });
          continue;
        }
        if (!required.has(name) && lowRequired.has(name)) add({ path: at, kind: 'optional-nullable', described: false });
        compare(property, lowProperty, at, stack);
      }
    }
  };

  compare(source, lowered, '$', []);
  const loweredDefs = (lowered as ParametersSchema).$defs;
  if (loweredDefs) for (const [name, def] of Object.entries(defs)) if (loweredDefs[name]) compare(def, loweredDefs[name], `$defs.${name}`, [name]);
  return [...losses.values()];
}

/** A lowered node read as JSON Schema: Gemini's type names, `nullable`, string limits and `example` translated. */
function view(node: JsonSchema): JsonSchema {
  const raw = node as JsonSchema & { nullable?: boolean; example?: JsonValue };
  if (typeof raw.type !== 'string' || raw.type !== raw.type.toUpperCase()) return node;
  const { nullable, example, ...rest } = raw;
  const out: Record<string, unknown> = { ...rest, type: nullable ? [raw.type.toLowerCase(), 'null'] : raw.type.toLowerCase() };
  for (const keyword of STRING_LIMITS) if (typeof out[keyword] === 'string') out[keyword] = Number(out[keyword]);
  if (example !== undefined) out.examples = [example];
  if (out.format === 'enum') delete out.format;
  if (nullable && Array.isArray(out.enum)) out.enum = [...(out.enum as JsonValue[]), null];
  return out;
}

/** The node without the `null` a lowering added (strict mode's "not given", Gemini's `nullable`). */
function withoutNull(node: JsonSchema): JsonSchema {
  if (node.anyOf?.some(isNull)) {
    const rest = node.anyOf.filter((b) => !isNull(b));
    if (rest.length !== 1) return { ...node, anyOf: rest };
    const only = view(rest[0]!);
    return node.description !== undefined ? { ...only, description: node.description } : only;
  }
  if (Array.isArray(node.type) && node.type.includes('null')) {
    const types = node.type.filter((t) => t !== 'null');
    const enumValues = node.enum?.filter((v) => v !== null);
    return { ...node, type: types.length === 1 ? types[0]! : types, ...(enumValues ? { enum: enumValues } : {}) };
  }
  return node;
}

function typesOf(node: JsonSchema): string[] {
  if (node.type === undefined) return [];
  return (Array.isArray(node.type) ? node.type : [node.type]).map((t) => t.toLowerCase());
}

function isNull(node: JsonSchema): boolean {
  return node.type === 'null' || (node as { type?: string }).type === 'NULL';
}

function acceptsNull(node: JsonSchema): boolean {
  return typesOf(node).includes('null') || node.const === null || (node.enum?.includes(null) ?? false) || (node.anyOf?.some(isNull) ?? false);
}
