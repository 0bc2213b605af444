import ts from 'typescript';
import type { JsonSchema, JsonSchemaTypeName, JsonValue } from '@toolwright/schema';
import { jsonTypeOf, literalValue } from './literal-mapper.js';
import type { MapContext, TypeMapper } from './type-mapper.js';

/**
 * Unions, including TS enums (unions of enum literals) and nullable types. `undefined` members are
 * dropped (JSON has no undefined: they make a property optional instead); literal members collapse
 * into one `enum`; `T | null` becomes nullable; anything else becomes `anyOf`, which also covers
 * discriminated unions (each variant keeps its discriminant as a required `const`).
 * @example async function f(mode: 'fast' | 'safe') {}        // { "type": "string", "enum": ["fast", "safe"] }
 * @example async function f(limit: number | null) {}         // { "type": ["number", "null"] }
 * @example async function f(shape: Circle | Square) {}       // { "anyOf": [ {...}, {...} ] }
 */
export const unionMapper: TypeMapper = {
  name: 'union',
  supports: (type) => type.isUnion(),
  map: (type, ctx) => {
    const union = type as ts.UnionType;
    const members = sourceOrder(union, ctx).filter((member) => (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) === 0);
    if (members.length === 0) return ctx.unsupported(type, 'Make the parameter optional (`name?: T`) instead of typing it undefined.');

    const hasNull = members.some((member) => (member.flags & ts.TypeFlags.Null) !== 0);
    const nonNull = members.filter((member) => (member.flags & ts.TypeFlags.Null) === 0);
    const booleans = nonNull.filter((member) => (member.flags & ts.TypeFlags.BooleanLiteral) !== 0 && !(member.flags & ts.TypeFlags.EnumLiteral));
    const bothBooleans = booleans.length === 2;

    const literals: JsonValue[] = [];
    const others: JsonSchema[] = [];
    for (const member of nonNull) {
      if (bothBooleans && booleans.includes(member)) continue;
      const literal = literalValue(member, ctx.checker);
      if (literal) literals.push(literal.value);
      else others.push(ctx.mapType(member));
    }
    if (bothBooleans) others.unshift({ type: 'boolean' });

    const variants: JsonSchema[] = [];
    if (literals.length > 0) variants.push(literalSchema(literals));
    variants.push(...others);
    if (variants.length === 0) return { type: 'null' };

    const combined: JsonSchema = variants.length === 1 ? variants[0]! : { anyOf: variants };
    return hasNull ? makeNullable(combined) : combined;
  },
};

/**
 * The checker keeps union members in type-creation order, which shifts with unrelated code; output
 * must not. Members are ordered as written: by the union type node at this position or of the alias,
 * enum members by their declarations, and anything else after them in a stable order by text.
 */
function sourceOrder(union: ts.UnionType, ctx: MapContext): ts.Type[] {
  const rank = new Map<ts.Type, number>();
  const node = unionNode(ctx.position.node) ?? unionNode(aliasTypeNode(union));
  node?.types.forEach((member, index) => {
    const memberType = ctx.checker.getTypeFromTypeNode(member);
    for (const part of memberType.isUnion() ? memberType.types : [memberType]) if (!rank.has(part)) rank.set(part, index);
  });
  const declared = (t: ts.Type): number | undefined => {
    const declaration = t.getSymbol()?.declarations?.[0];
    return declaration && t.flags & ts.TypeFlags.EnumLiteral ? declaration.getStart() : undefined;
  };
  return [...union.types].sort((a, b) => {
    const ra = rank.get(a) ?? Infinity;
    const rb = rank.get(b) ?? Infinity;
    if (ra !== rb) return ra - rb;
    const da = declared(a);
    const db = declared(b);
    if (da !== undefined && db !== undefined && da !== db) return da - db;
    const ta = ctx.checker.typeToString(a);
    const tb = ctx.checker.typeToString(b);
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
}

function unionNode(node: ts.Node | undefined): ts.UnionTypeNode | undefined {
  let current = node;
  while (current && ts.isParenthesizedTypeNode(current)) current = current.type;
  return current && ts.isUnionTypeNode(current) ? current : undefined;
}

function aliasTypeNode(union: ts.UnionType): ts.TypeNode | undefined {
  const declaration = union.aliasSymbol?.declarations?.[0];
  return declaration && ts.isTypeAliasDeclaration(declaration) ? declaration.type : undefined;
}

function literalSchema(values: JsonValue[]): JsonSchema {
  const types = unique(values.map(jsonTypeOf));
  const type = types.length === 1 ? types[0]! : types;
  return values.length === 1 ? { type, const: values[0]! } : { type, enum: values };
}

/** Adds `null` to a schema: into `type` and `enum` when the schema is a plain typed one, else as an `anyOf` branch. */
export function makeNullable(schema: JsonSchema): JsonSchema {
  if (schema.anyOf) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.type !== undefined && schema.$ref === undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const result: JsonSchema = { ...schema, type: unique<JsonSchemaTypeName>([...types, 'null']) };
    if (schema.const !== undefined) {
      delete result.const;
      result.enum = [schema.const, null];
    } else if (schema.enum) {
      result.enum = [...schema.enum, null];
    }
    return result;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
