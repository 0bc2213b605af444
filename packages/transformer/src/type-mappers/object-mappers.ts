import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import { isLibType, LIB_TYPE_REASONS } from './lib-types.js';
import { isOnlyUndefined, mapMember } from './map-member.js';
import type { MapContext, TypeMapper, TypePosition, UnsupportedReason } from './type-mapper.js';

/** @example async function f(since: Date) {}   // { "type": "string", "format": "date-time" } */
export const dateMapper: TypeMapper = {
  name: 'date',
  supports: (type, ctx) => isLibType(type, ctx.isLibFile, ['Date']),
  map: () => ({ type: 'string', format: 'date-time' }),
};

/**
 * Object types with no JSON form: functions and library classes (Map, Set, Promise, RegExp, ...).
 * @example async function f(callback: () => void) {}   // TW1002
 */
export const noJsonObjectMapper: TypeMapper = {
  name: 'no-json-object',
  supports: (type, ctx) => noJsonReason(type, ctx) !== undefined,
  map: (type, ctx) => {
    const { reason, name } = noJsonReason(type, ctx)!;
    return ctx.unsupported(type, reason, name ? { name } : {});
  },
};

function noJsonReason(type: ts.Type, ctx: MapContext): { reason: UnsupportedReason; name?: string } | undefined {
  if (!(type.flags & ts.TypeFlags.Object)) return undefined;
  // Arrays and tuples have no signatures: asked first, they need no question about signatures.
  if (ctx.checker.isArrayType(type) || ctx.checker.isTupleType(type)) return undefined;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return { reason: 'callback' };
  // Only library interfaces and classes (Map, Promise, ...) are runtime objects: `Partial<T>`,
  // `Record<K, V>` and other library *mapped types* are plain data shapes.
  const symbol = type.getSymbol();
  const runtimeObject = symbol !== undefined && (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) !== 0 && !symbol.name.startsWith('__');
  if (symbol && runtimeObject && (symbol.declarations ?? []).some((d) => ctx.isLibFile(d.getSourceFile()))) {
    return { reason: LIB_TYPE_REASONS[symbol.name] ?? 'runtimeObject', name: symbol.name };
  }
  return undefined;
}

/**
 * Interfaces, type literals, class instances, intersections of objects and mapped types (Partial,
 * Pick, Omit, Readonly, Required, Record): one closed object per type, properties in declaration
 * order. String index signatures (and `Record<string, T>`) become `additionalProperties`; a bag of
 * `unknown` values is any JSON object. A class instance keeps its public data properties.
 * @example async function f(options: { depth?: number; follow: boolean }) {}
 * @example async function f(metadata: Record<string, unknown>) {}   // { "type": "object" }  + TW1104
 */
export const objectMapper: TypeMapper = {
  name: 'object',
  supports: (type) => (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0,
  map: (type, ctx) => ctx.cached(type, () => ctx.definitions.withDefinition(type, () => mapObject(type, ctx))),
};

function mapObject(type: ts.Type, ctx: MapContext): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const leftOut: string[] = [];
  const isClass = ((type.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Class) !== 0;
  for (const property of propertiesInOrder(type, ctx)) {
    if (property.escapedName.toString().startsWith('__@')) continue; // symbol-keyed: invisible in JSON
    if (property.name === 'typia.tag') continue; // typia's phantom tag carrier, not data
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (isClass) {
      const behaviour = classBehaviour(property, declaration);
      if (behaviour) {
        leftOut.push(behaviour);
        continue;
      }
    }
    const propertyType = ctx.checker.getTypeOfSymbol(property);
    if (isOnlyUndefined(propertyType)) continue; // `legacy?: undefined`, `result: void`: nothing to send
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const member = mapMember({ name: property.name, role: 'property', type: propertyType, declaration, optional }, ctx);
    properties[property.name] = member.schema;
    if (member.required) required.push(property.name);
  }
  if (leftOut.length > 0) {
    ctx.report('classInstance', { ...ctx.subject(type), members: leftOut.join(', ') }, classReportNode(type, ctx));
  }
  const index = indexSignature(type, ctx);
  if (index && isAnyJson(index.type)) {
    // A bag of arbitrary values: the object stays open (no `additionalProperties`).
    if (Object.keys(properties).length === 0) {
      ctx.report('anyJson.object', ctx.subject(type));
      return { type: 'object' };
    }
    return withRequired({ type: 'object', properties }, required);
  }
  const schema = withRequired({ type: 'object', properties }, required);
  schema.additionalProperties = index ? ctx.mapType(index.type, indexPosition(ctx)) : false;
  return schema;
}

/**
 * The properties in the order a model is shown them: as declared. A mapped type's come in the order
 * of its keys' union, which each compiler orders its own way (TypeScript 7 sorts literal types,
 * TypeScript 6 keeps the order they were made in): they are ordered by the declaration each comes
 * from (a `Partial<T>`'s by `T`'s), and by name where several share one (`{ [K in Feature]: … }`).
 */
function propertiesInOrder(type: ts.Type, ctx: MapContext): readonly ts.Symbol[] {
  const properties = ctx.checker.getPropertiesOfType(type);
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped)) return properties;
  const position = (property: ts.Symbol): [string, number] => {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    return declaration ? [declaration.getSourceFile().fileName, declaration.pos] : ['\uffff', 0];
  };
  return properties
    .map((property) => ({ property, at: position(property) }))
    .sort((a, b) => compare(a.at[0], b.at[0]) || a.at[1] - b.at[1] || compare(a.property.name, b.property.name))
    .map(({ property }) => property);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withRequired(schema: JsonSchema, required: string[]): JsonSchema {
  if (required.length > 0) schema.required = required;
  return schema;
}

function indexSignature(type: ts.Type, ctx: MapContext): ts.IndexInfo | undefined {
  return ctx.checker.getIndexInfosOfType(type).find((index) => index.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.Number));
}

function indexPosition(ctx: MapContext): TypePosition {
  const { typeNode: _parent, ...position } = ctx.position;
  return { ...position, path: `${ctx.position.path}[string]`, role: 'property' };
}

function isAnyJson(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
}

/**
 * What a plain object built from JSON lacks of a class instance: methods (`close()`), accessors
 * and non-public properties. `undefined` for a public data property.
 */
function classBehaviour(property: ts.Symbol, declaration: ts.Declaration | undefined): string | undefined {
  if (property.flags & ts.SymbolFlags.Method) return `${property.name}()`;
  if (property.flags & ts.SymbolFlags.Accessor) return property.name;
  const name = (declaration as { name?: ts.Node } | undefined)?.name;
  if (name && ts.isPrivateIdentifier(name)) return property.name;
  if (declaration && ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return property.name;
  return undefined;
}

/** The class name when the class is the project's own code (one warning per class), else the use. */
function classReportNode(type: ts.Type, ctx: MapContext): ts.Node {
  const declaration = type.getSymbol()?.declarations?.find(ts.isClassDeclaration);
  return declaration?.name && !declaration.getSourceFile().isDeclarationFile && ctx.isProjectFile(declaration.getSourceFile())
    ? declaration.name
    : ctx.position.node;
}
