import { ts } from '../front-end/typescript.js';
import type { JsonSchema, JsonSchemaTypeName, JsonValue } from '@toolwright/schema';
import { booleanLiteralValue, jsonTypeOf, literalValue } from './literal-mapper.js';
import type { MapContext, PositionReadingMapper, TypePosition } from './type-mapper.js';
import { hasDocs, namedTypeDocs, resolveSyntax, unionMemberNodes } from './type-syntax.js';

/**
 * Unions, including TS enums (unions of enum literals) and nullable types. `undefined` and `void`
 * members are dropped (JSON has no undefined: they make a property optional instead); literal members
 * collapse into one `enum`; `T | null` becomes nullable; anything else becomes `anyOf`, which also
 * covers discriminated unions (each variant keeps its discriminant as a required `const`). A union
 * alias that refers to itself becomes a `$defs` entry, as recursive interfaces do.
 * @example async function f(mode: 'fast' | 'safe') {}        // { "type": "string", "enum": ["fast", "safe"] }
 * @example async function f(limit: number | null) {}         // { "type": ["number", "null"] }
 * @example async function f(shape: Circle | Square) {}       // { "anyOf": [ {...}, {...} ] }
 * @example type J = string | J[];  async function f(j: J) {}  // { "$ref": "#/$defs/J" }
 *
 * Members are read from the syntax when a member is an alias whose docs the checker would lose:
 * `BuiltInRole | CustomRole` with `/** @pattern ^x- *\/ type CustomRole = string` is just `string` to
 * the checker (the literals are absorbed), but keeps both alternatives here.
 * @example async function f(role: BuiltInRole | CustomRole) {}  // { "anyOf": [ { "enum": [...] }, { "pattern": "^x-" } ] }
 */
export const unionMapper: PositionReadingMapper = {
  name: 'union',
  readsPosition: true,
  supportsType: (type) => type.isUnion(),
  supports: (type, ctx) => type.isUnion() || documentedMemberNodes(ctx) !== undefined,
  map: (type, ctx) => {
    const nodes = documentedMemberNodes(ctx);
    const build = () =>
      ctx.definitions.withDefinition(type, () => {
        const members: Member[] = nodes
          ? nodes.map((node) => ({ type: ctx.checker.getTypeFromTypeNode(node), node }))
          : sourceOrder(type as ts.UnionType, ctx).map((member) => ({ type: member }));
        return mapMembers(type, members, ctx);
      });
    return !nodes && readsTheSameEverywhere(type as ts.UnionType, ctx) ? ctx.cached(type, build) : build();
  },
};

/**
 * Whether the union maps to the same schema at every use, so it can be mapped once per program: an
 * enum, or an alias referred to by name (its members are ordered by the alias's declaration). The same
 * literal union written inline in two orders is one type to the checker, but two member orders here.
 */
function readsTheSameEverywhere(union: ts.UnionType, ctx: MapContext): boolean {
  if ((union.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Enum) return true;
  const declared = unionNode(aliasTypeNode(union), ctx.checker);
  return declared !== undefined && unionNode(ctx.position.typeNode ?? ctx.position.node, ctx.checker) === declared;
}

interface Member {
  type: ts.Type;
  /** The member's own syntax, when the union is read from its syntax. */
  node?: ts.TypeNode;
}

function mapMembers(type: ts.Type, all: Member[], ctx: MapContext): JsonSchema {
  const members = all.filter(({ type: member }) => (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) === 0);
  if (members.length === 0) return ctx.unsupported(type, 'undefined');

  const hasNull = members.some(({ type: member }) => (member.flags & ts.TypeFlags.Null) !== 0);
  const nonNull = members.filter(({ type: member }) => (member.flags & ts.TypeFlags.Null) === 0);
  const isBooleanLiteral = (member: ts.Type) => (member.flags & ts.TypeFlags.BooleanLiteral) !== 0 && !(member.flags & ts.TypeFlags.EnumLiteral);
  const booleans = nonNull.filter(({ type: member }) => isBooleanLiteral(member));
  const bothBooleans = booleans.length === 2;

  const literals: JsonValue[] = [];
  const others: JsonSchema[] = [];
  for (const member of nonNull) {
    if (bothBooleans && booleans.includes(member)) continue;
    const literal = literalValue(member.type, ctx.checker);
    if (literal) literals.push(literal.value);
    else others.push(ctx.mapType(member.type, memberPosition(ctx, member.node)));
  }
  if (bothBooleans) others.unshift({ type: 'boolean' });

  const variants: JsonSchema[] = [];
  if (literals.length > 0) variants.push(literalSchema(literals));
  variants.push(...others);
  if (variants.length === 0) return { type: 'null' };

  const combined: JsonSchema = variants.length === 1 ? variants[0]! : { anyOf: variants };
  return hasNull ? makeNullable(combined) : combined;
}

/**
 * A member keeps the union's position; its syntax is its own node when the union is read from its
 * syntax, else the union's (it still denotes the member when the union only added `undefined`).
 */
function memberPosition(ctx: MapContext, node: ts.TypeNode | undefined): TypePosition {
  if (!node) return ctx.position;
  return { ...ctx.position, typeNode: node };
}

/**
 * The member nodes of the union written at this position, when reading the union from its syntax
 * keeps something the checker's type loses: some member is an alias with docs the checker forgot.
 */
function documentedMemberNodes(ctx: MapContext): ts.TypeNode[] | undefined {
  const nodes = unionMemberNodes(ctx.position.typeNode);
  if (!nodes || nodes.length < 2) return undefined;
  // A member that is a documented alias the checker forgot, or a documented union the checker flattens into this one.
  const documented = nodes.some((node) => {
    const type = ctx.checker.getTypeFromTypeNode(node);
    return resolveSyntax(node, type, ctx).aliasDocs.some(hasDocs) || (type.isUnion() && namedTypeDocs(type, ctx).some(hasDocs));
  });
  return documented ? nodes : undefined;
}

/**
 * The checker keeps union members in type-creation order, which shifts with unrelated code; output
 * must not. Members are ordered as written: by the union type node at this position or of the alias,
 * enum members by their declarations, and anything else after them in a stable order by text.
 */
function sourceOrder(union: ts.UnionType, ctx: MapContext): ts.Type[] {
  // `undefined`, `void` and `null` are not variants (they are dropped or make the schema nullable): their place does not matter.
  const absent = ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null;
  const variants = union.types.filter((t) => !(t.flags & absent));
  const rest = union.types.filter((t) => t.flags & absent);
  if (variants.length < 2) return [...variants, ...rest];
  const rank = new Map<ts.Type, number>();
  const node = unionNode(ctx.position.typeNode ?? ctx.position.node, ctx.checker) ?? unionNode(aliasTypeNode(union), ctx.checker);
  node?.types.forEach((member, index) => {
    const memberType = ctx.checker.getTypeFromTypeNode(member);
    for (const part of memberType.isUnion() ? memberType.types : [memberType]) if (!rank.has(part)) rank.set(part, index);
  });
  const declared = (t: ts.Type): number | undefined => {
    const declaration = t.getSymbol()?.declarations?.[0];
    return declaration && t.flags & ts.TypeFlags.EnumLiteral ? declaration.getStart() : undefined;
  };
  const texts = new Map<ts.Type, string>();
  const text = (t: ts.Type): string => {
    let known = texts.get(t);
    if (known === undefined)
      texts.set(t, (known = t.flags & ts.TypeFlags.BooleanLiteral ? String(booleanLiteralValue(t, ctx.checker)) : ctx.checker.typeToString(t)));
    return known;
  };
  return [
    ...variants.sort((a, b) => {
      const ra = rank.get(a) ?? Infinity;
      const rb = rank.get(b) ?? Infinity;
      if (ra !== rb) return ra - rb;
      const da = declared(a);
      const db = declared(b);
      if (da !== undefined && db !== undefined && da !== db) return da - db;
      const ta = text(a);
      const tb = text(b);
      return ta < tb ? -1 : ta > tb ? 1 : 0;
    }),
    ...rest,
  ];
}

/** The union type node written here, followed through an alias (`when?: Condition` lost the alias on its type). */
function unionNode(node: ts.Node | undefined, checker: ts.TypeChecker): ts.UnionTypeNode | undefined {
  let current = node;
  for (let hops = 0; current && hops < 8; hops++) {
    while (ts.isParenthesizedTypeNode(current)) current = current.type;
    if (ts.isUnionTypeNode(current)) return current;
    if (!ts.isTypeReferenceNode(current)) return undefined;
    let symbol = checker.getSymbolAtLocation(current.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    current = symbol?.declarations?.find(ts.isTypeAliasDeclaration)?.type;
  }
  return undefined;
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
