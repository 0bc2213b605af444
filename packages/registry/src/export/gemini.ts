import type { JsonSchema, JsonSchemaTypeName, JsonValue, ParametersSchema, ToolDeclaration } from '@toolwright/schema';
import { describeDropped, withNotes } from './describe-constraints.js';
import { isMap } from './openai-strict.js';

export type GeminiTypeName = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/** The type names to emit: by default the strings; pass `@google/genai`'s `Type` enum to get its type. */
export type GeminiTypes<T> = { readonly [K in GeminiTypeName]: T };

/** Gemini's OpenAPI-subset Schema (integer limits travel as strings, as in the API). */
export interface GeminiSchema<T = GeminiTypeName> {
  type?: T;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema<T>;
  properties?: Record<string, GeminiSchema<T>>;
  required?: string[];
  propertyOrdering?: string[];
  anyOf?: GeminiSchema<T>[];
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
}

export interface GeminiFunctionDeclaration<T = GeminiTypeName> {
  name: string;
  description: string;
  parameters: GeminiSchema<T>;
}

const DEFAULT_TYPES: GeminiTypes<GeminiTypeName> = {
  STRING: 'STRING',
  NUMBER: 'NUMBER',
  INTEGER: 'INTEGER',
  BOOLEAN: 'BOOLEAN',
  ARRAY: 'ARRAY',
  OBJECT: 'OBJECT',
  NULL: 'NULL',
};
const FORMATS: Partial<Record<JsonSchemaTypeName, ReadonlySet<string>>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

/** Gemini `functionDeclarations`. Warnings (recursive types, maps) are available from `lowerForGemini`. */
export function toGeminiFunctionDeclarations<T = GeminiTypeName>(
  declarations: readonly ToolDeclaration[],
  options: { types?: GeminiTypes<T> } = {},
): GeminiFunctionDeclaration<T>[] {
  return declarations.map((d) => ({
    name: d.name,
    description: d.description,
    parameters: lowerForGemini(d.parameters, { ...options, order: d.parameterOrder }).schema,
  }));
}

/**
 * Lowers a parameters schema to Gemini's subset: `$ref`s inlined (a recursive type cannot be, and
 * becomes an object described in words, with a warning), `type: [T, "null"]` as `nullable`, `const`
 * and string enums as `enum`, number enums, tuples, maps and the keywords Gemini lacks described in
 * the description, integer limits as strings, and `propertyOrdering` in declaration order.
 */
export function lowerForGemini<T = GeminiTypeName>(
  schema: ParametersSchema,
  options: { types?: GeminiTypes<T>; order?: readonly string[] } = {},
): { schema: GeminiSchema<T>; warnings: string[] } {
  const types = (options.types ?? DEFAULT_TYPES) as GeminiTypes<T>;
  const warnings: string[] = [];
  const defs = schema.$defs ?? {};

  const lower = (node: JsonSchema, stack: readonly string[], where: string): GeminiSchema<T> => {
    if (node.$ref !== undefined) {
      const name = node.$ref.replace(/^#\/\$defs\//, '');
      const target = defs[name];
      if (!target) {
        warnings.push(`${where}: unresolved $ref ${node.$ref}`);
        return { description: withNotes(node.description, [`unresolved type ${name}`])! };
      }
      if (stack.includes(name)) {
        warnings.push(`${where}: the recursive type ${name} cannot be expressed for Gemini; deeper levels are described, not checked`);
        return { type: types.OBJECT, description: withNotes(node.description ?? target.description, [`a ${name} again (recursive structure)`])! };
      }
      const inlined = lower(target, [...stack, name], where);
      return node.description ? { ...inlined, description: node.description } : inlined;
    }
    const out: GeminiSchema<T> = {};
    const notes = describeDropped(node, ['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'deprecated']);
    let nullable = false;
    let typeNames = node.type === undefined ? [] : Array.isArray(node.type) ? [...node.type] : [node.type];
    if (typeNames.includes('null')) {
      nullable = true;
      typeNames = typeNames.filter((t) => t !== 'null');
    }

    if (node.const !== undefined) {
      if (node.const === null) nullable = true;
      else if (typeof node.const === 'string') {
        out.enum = [node.const];
        typeNames = ['string'];
      } else {
        notes.push(`always ${JSON.stringify(node.const)}`);
        typeNames = [jsonType(node.const)];
      }
    }
    if (node.enum) {
      const values = node.enum.filter((v) => v !== null);
      if (values.length < node.enum.length) nullable = true;
      if (values.every((v) => typeof v === 'string')) {
        out.enum = values;
        typeNames = ['string'];
        out.format = 'enum';
      } else {
        notes.push(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
        if (typeNames.length === 0) typeNames = [...new Set(values.map(jsonType))];
      }
    }
    if (node.anyOf) {
      const branches = node.anyOf.filter((b) => !(b.type === 'null' && Object.keys(b).length === 1));
      if (branches.length < node.anyOf.length) nullable = true;
      const lowered = branches.map((b, i) => lower(b, stack, `${where}.anyOf[${i}]`));
      if (lowered.length === 1) Object.assign(out, lowered[0]);
      else out.anyOf = lowered;
    }
    if (typeNames.length > 1) {
      out.anyOf = typeNames.map((t) => ({ type: types[t.toUpperCase() as GeminiTypeName] }));
    } else if (typeNames.length === 1) {
      out.type = types[typeNames[0]!.toUpperCase() as GeminiTypeName];
    }
    const single = typeNames.length === 1 ? typeNames[0] : undefined;
    if (node.format !== undefined && out.format === undefined) {
      if (single && FORMATS[single]?.has(node.format)) out.format = node.format;
      else notes.push(`format: ${node.format}`);
    }
    if (node.title !== undefined) out.title = node.title;
    if (node.pattern !== undefined) out.pattern = node.pattern;
    if (node.minLength !== undefined) out.minLength = String(node.minLength);
    if (node.maxLength !== undefined) out.maxLength = String(node.maxLength);
    if (node.minimum !== undefined) out.minimum = node.minimum;
    if (node.maximum !== undefined) out.maximum = node.maximum;
    if (node.minItems !== undefined) out.minItems = String(node.minItems);
    if (node.maxItems !== undefined) out.maxItems = String(node.maxItems);
    if (node.default !== undefined) out.default = node.default;
    if (node.examples?.length) out.example = node.examples[0];
    if (node.items) out.items = lower(node.items, stack, `${where}[]`);
    if (node.prefixItems) {
      const members = node.prefixItems.map((m, i) => lower(m, stack, `${where}[${i}]`));
      const kinds = node.items ? [...members, lower(node.items, stack, `${where}[]`)] : members;
      out.type = types.ARRAY;
      out.items = kinds.length === 1 ? kinds[0]! : { anyOf: kinds };
      out.minItems = String(node.minItems ?? members.length);
      if (node.items) {
        if (node.maxItems === undefined) delete out.maxItems;
      } else out.maxItems = String(node.maxItems ?? members.length);
      notes.push(`${members.length} items in order${node.items ? ', then more' : ''}`);
    }
    if (node.properties && !isMap(node)) {
      out.type = types.OBJECT;
      out.properties = Object.fromEntries(Object.entries(node.properties).map(([key, value]) => [key, lower(value, stack, `${where}.${key}`)]));
      if (node.required?.length) out.required = [...node.required];
      out.propertyOrdering = Object.keys(node.properties);
    } else if (typeof node.additionalProperties === 'object') {
      out.type = types.OBJECT;
      warnings.push(`${where}: a map (string keys) cannot be described to Gemini; its value type is given in words`);
      notes.push(`an object with any keys, each value ${describeType(node.additionalProperties)}`);
    }
    if (nullable) out.nullable = true;
    const description = withNotes(node.description, notes);
    if (description !== undefined) out.description = description;
    return out;
  };

  const root = lower(schema, [], '$');
  if (options.order) root.propertyOrdering = [...options.order];
  root.type = types.OBJECT;
  return { schema: root, warnings };
}

function jsonType(value: JsonValue): JsonSchemaTypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonSchemaTypeName;
}

function describeType(schema: JsonSchema): string {
  if (schema.$ref) return `a ${schema.$ref.replace('#/$defs/', '')}`;
  if (schema.type) return `of type ${Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type}`;
  return 'of any type';
}
