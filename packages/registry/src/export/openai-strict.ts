import type { JsonSchema, ParametersSchema, ToolDeclaration } from '@toolwright/schema';
import { describeDropped, withNotes } from './describe-constraints.js';

/** Keywords OpenAI's strict mode (structured outputs) accepts. */
const KEPT: readonly (keyof JsonSchema)[] = [
  'type',
  'description',
  'enum',
  'const',
  'anyOf',
  '$ref',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
];
const DROPPED: readonly (keyof JsonSchema)[] = ['default', 'examples', 'deprecated', 'minLength', 'maxLength', 'uniqueItems', 'title'];
/** The string formats strict mode knows; others are described instead. */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/**
 * Lowers a parameters schema to OpenAI's strict dialect: every object closed and every property
 * required, an optional property made nullable (`null` = "not given"; for an optional property that
 * itself accepts null, "not given" arrives as null), maps (`Record<string, T>`) as lists of
 * `{key, value}` entries, tuples as bounded arrays, any JSON value and open objects (`unknown`,
 * `object`, `Record<string, unknown>`) as a string holding their JSON text, and the keywords the
 * dialect rejects (defaults, examples, string lengths, unique items, unknown formats) moved into
 * descriptions. `decodeOpenAIStrictArguments` undoes it, so the tool receives its original shape.
 */
export function lowerForOpenAIStrict(schema: ParametersSchema): JsonSchema {
  const lowered = lower(schema);
  if (schema.$defs) {
    lowered.$defs = Object.fromEntries(Object.entries(schema.$defs).map(([name, def]) => [name, lower(def)]));
  }
  return lowered;
}

function lower(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  const notes = describeDropped(schema, DROPPED);
  if (isOpaque(schema)) {
    // Strict mode has no open object and no "any value": the value travels as its JSON text.
    const what = schema.type === 'object' ? 'a JSON object' : 'any JSON value';
    return { type: 'string', description: withNotes(schema.description, [...notes, `${what}, written as JSON text`])! };
  }
  for (const keyword of KEPT) {
    const value = schema[keyword];
    if (value !== undefined) (out as Record<string, unknown>)[keyword] = value;
  }
  if (schema.format !== undefined) {
    if (STRICT_FORMATS.has(schema.format)) out.format = schema.format;
    else notes.push(...describeDropped({ format: schema.format }, ['format']));
  }
  if (schema.anyOf) out.anyOf = schema.anyOf.map(lower);
  if (schema.items) out.items = lower(schema.items);
  if (schema.prefixItems) {
    // Tuples have no strict form: a bounded array of the member types, the order told in words.
    const members = schema.prefixItems.map(lower);
    const rest = schema.items ? lower(schema.items) : undefined;
    const kinds = rest ? [...members, rest] : members;
    out.type = 'array';
    out.items = kinds.length === 1 ? kinds[0]! : { anyOf: kinds };
    out.minItems = schema.minItems ?? members.length;
    if (rest) {
      if (schema.maxItems !== undefined) out.maxItems = schema.maxItems;
      else delete out.maxItems;
    } else out.maxItems = schema.maxItems ?? members.length;
    notes.push(
      `items in this order: ${schema.prefixItems.map(typeLabel).join(', ')}${rest ? `, then any number of ${typeLabel(schema.items as JsonSchema)}` : ''}`,
    );
  }
  if (isMap(schema)) {
    // A map (`Record<string, T>`) has no strict form: it travels as a list of entries, and the
    // decoder (which walks the original schema) turns the list back into the map.
    const value = lower(schema.additionalProperties as JsonSchema);
    return {
      type: 'array',
      description: withNotes(schema.description, [...notes, 'a list of key/value entries'])!,
      items: { type: 'object', properties: { key: { type: 'string' }, value }, required: ['key', 'value'], additionalProperties: false },
    };
  }
  if ((schema.properties || schema.type === 'object') && !isMap(schema)) {
    const properties = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const lowered = lower(property);
        return [name, required.has(name) ? lowered : nullable(lowered)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
    if (hasTypedExtras(schema)) {
      // Named properties and other keys of a type (`{ a: number } & Record<string, number>`): the named ones stay
      // properties, the others travel as a list of entries beside them, which the decoder merges back.
      const key = extrasKey(properties);
      out.properties[key] = {
        type: 'array',
        description: `the other keys, as a list of key/value entries (none: an empty list)`,
        items: {
          type: 'object',
          properties: { key: { type: 'string' }, value: lower(schema.additionalProperties as JsonSchema) },
          required: ['key', 'value'],
          additionalProperties: false,
        },
      };
      out.required.push(key);
    }
  }
  const description = withNotes(out.description, notes);
  if (description !== undefined) out.description = description;
  return out;
}

/** The same schema, also accepting null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  if (schema.anyOf) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.$ref !== undefined || schema.const !== undefined || schema.type === undefined) {
    const { description, ...rest } = schema;
    return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
}

function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (schema.const === null || schema.enum?.includes(null)) return true;
  return schema.anyOf?.some(acceptsNull) ?? false;
}

function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.replace('#/$defs/', '');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
}

/**
 * Turns arguments written against the strict schema back into the tool's original shape: a `null`
 * for a property that was optional (and does not itself accept null) is removed, entry lists are turned back into maps, and the JSON
 * text of an opaque value is parsed. Walks the ORIGINAL schema, resolving `$ref`s through its `$defs`; depth is
 * bounded by the value's own nesting (already limited when the arguments were parsed).
 */
export function decodeOpenAIStrictArguments(original: ParametersSchema, args: Record<string, unknown>): Record<string, unknown> {
  return decode(original, args, original.$defs ?? {}) as Record<string, unknown>;
}

/**
 * The arguments of a call to a tool of a strict export (`{ strict: true }`), as the tool takes them: decoded, unless
 * the tool turned strict mode off (`strict: false`), which the export sends with its own schema, so its arguments
 * arrive as they are. As the executor's hook: `decodeArguments: (args, d) => decodeOpenAIStrictCall(d, args)`.
 */
export function decodeOpenAIStrictCall(declaration: ToolDeclaration, args: Record<string, unknown>): Record<string, unknown> {
  return declaration.metadata.strict === false ? args : decodeOpenAIStrictArguments(declaration.parameters, args);
}

function decode(schema: JsonSchema, value: unknown, defs: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 128) return value;
  const resolved = resolve(schema, defs);
  if (isOpaque(resolved) && typeof value === 'string') {
    // JSON text back to its value; text that is not JSON stays a string (validation then judges it).
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (isMap(resolved) && value.every((entry) => isEntry(entry))) {
      return Object.fromEntries(
        value.map((entry: { key: string; value: unknown }) => [entry.key, decode(resolved.additionalProperties as JsonSchema, entry.value, defs, depth + 1)]),
      );
    }
    if (resolved.prefixItems)
      return value.map((item: unknown, i) => {
        const member = resolved.prefixItems![i] ?? (typeof resolved.items === 'object' ? resolved.items : undefined);
        return member ? decode(member, item, defs, depth + 1) : item;
      });
    if (resolved.items) return value.map((item) => decode(resolved.items as JsonSchema, item, defs, depth + 1));
    if (resolved.anyOf) return decodeAnyOf(resolved.anyOf, value, defs, depth);
    return value;
  }
  const object = value as Record<string, unknown>;
  if (!resolved.properties || isMap(resolved)) {
    if (resolved.anyOf) return decodeAnyOf(resolved.anyOf, value, defs, depth);
    return value;
  }
  const required = new Set(resolved.required ?? []);
  const out: [string, unknown][] = [];
  // The other keys' entries (see `hasTypedExtras`), merged back after the named properties.
  const extrasName = hasTypedExtras(resolved) ? extrasKey(resolved.properties) : undefined;
  const extras = extrasName !== undefined && Array.isArray(object[extrasName]) && (object[extrasName] as unknown[]).every(isEntry) ? extrasName : undefined;
  for (const [key, item] of Object.entries(object)) {
    if (key === extras) continue;
    const property = resolved.properties[key];
    if (!property) {
      out.push([key, item]);
      continue;
    }
    if (item === null && !required.has(key) && !acceptsNull(resolve(property, defs))) continue;
    out.push([key, decode(property, item, defs, depth + 1)]);
  }
  if (extras !== undefined)
    for (const entry of object[extras] as { key: string; value: unknown }[])
      if (!Object.hasOwn(resolved.properties, entry.key))
        out.push([entry.key, decode(resolved.additionalProperties as JsonSchema, entry.value, defs, depth + 1)]);
  return Object.fromEntries(out);
}

/**
 * The first object-or-array branch whose shape fits the value decides how it is decoded. A list of
 * `{key, value}` entries is a map's when a map branch exists (in the lowered form an object is always
 * sent as entries, so a list of entry objects cannot be a plain array's unless its items are
 * themselves objects with `key`).
 */
function decodeAnyOf(branches: JsonSchema[], value: object, defs: Record<string, JsonSchema>, depth: number): unknown {
  const keys = Array.isArray(value) ? [] : Object.keys(value);
  if (Array.isArray(value) && value.length > 0 && value.every(isEntry)) {
    const resolvedBranches = branches.map((b) => resolve(b, defs));
    const map = resolvedBranches.find(isMap);
    const entryArray = resolvedBranches.some((b) => typeof b.items === 'object' && resolve(b.items, defs).properties?.key !== undefined);
    if (map && !entryArray) return decode(map, value, defs, depth + 1);
  }
  for (const branch of branches) {
    const resolved = resolve(branch, defs);
    if (Array.isArray(value) && (resolved.type === 'array' || resolved.items || resolved.prefixItems || isMap(resolved)))
      return decode(resolved, value, defs, depth + 1);
    if (!Array.isArray(value) && resolved.properties && keys.every((k) => k in resolved.properties!)) return decode(resolved, value, defs, depth + 1);
  }
  return value;
}

function resolve(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 32; hops++) {
    const target = defs[current.$ref.replace(/^#\/\$defs\//, '')];
    if (!target) break;
    current = target;
  }
  return current;
}

/**
 * A schema strict mode cannot close: any JSON value (`{}`, only annotations) or an object open to
 * properties it does not name (`{"type": "object"}` without `additionalProperties: false`).
 */
export function isOpaque(schema: JsonSchema): boolean {
  if (schema.type === 'object') return (schema.additionalProperties === undefined || schema.additionalProperties === true) && schema.$ref === undefined;
  return (
    schema.type === undefined &&
    schema.anyOf === undefined &&
    schema.$ref === undefined &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.properties === undefined &&
    schema.items === undefined &&
    schema.prefixItems === undefined &&
    schema.additionalProperties === undefined
  );
}

/** Named properties and other keys typed by `additionalProperties` (`{ a: number } & Record<string, number>`). */
function hasTypedExtras(schema: JsonSchema): boolean {
  return typeof schema.additionalProperties === 'object' && Object.keys(schema.properties ?? {}).length > 0;
}

/** The property that carries the other keys' entries in the strict form: a name none of the named properties has. */
function extrasKey(properties: Readonly<Record<string, unknown>>): string {
  let key = 'other_entries';
  while (Object.hasOwn(properties, key)) key = `_${key}`;
  return key;
}

/** `Record<string, T>`: values typed by `additionalProperties`, no named properties. */
export function isMap(schema: JsonSchema): boolean {
  return typeof schema.additionalProperties === 'object' && Object.keys(schema.properties ?? {}).length === 0;
}

function isEntry(value: unknown): value is { key: string; value: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { key?: unknown }).key === 'string' && 'value' in value;
}
