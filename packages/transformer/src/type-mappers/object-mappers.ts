import ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';
import { applyDocTags } from './constraint-tags.js';
import { aliasDocsOfTypeNode } from './alias-docs.js';
import { isLibType, LIB_TYPE_HINTS } from './lib-types.js';
import type { MapContext, TypeMapper, TypePosition } from './type-mapper.js';

/** @example async function f(since: Date) {}   // { "type": "string", "format": "date-time" } */
export const dateMapper: TypeMapper = {
  name: 'date',
  supports: (type, ctx) => isLibType(type, ctx.isLibFile, ['Date']),
  map: () => ({ type: 'string', format: 'date-time' }),
};

/**
 * Object types with no JSON form: functions, library classes (Map, Set, Promise, RegExp, ...),
 * the `object` keyword, and instances of user classes that have methods.
 * @example async function f(callback: () => void) {}   // TW1002
 */
export const noJsonObjectMapper: TypeMapper = {
  name: 'no-json-object',
  supports: (type, ctx) => noJsonHint(type, ctx) !== undefined,
  map: (type, ctx) => ctx.unsupported(type, noJsonHint(type, ctx)!),
};

function noJsonHint(type: ts.Type, ctx: MapContext): string | undefined {
  if (type.flags & ts.TypeFlags.NonPrimitive) return "'object' says nothing the model can follow; describe the properties with an interface.";
  if (!(type.flags & ts.TypeFlags.Object)) return undefined;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    return 'Tools receive data, not callbacks: take a value that describes what to do.';
  }
  if (ctx.checker.isArrayType(type) || ctx.checker.isTupleType(type)) return undefined;
  // Only library interfaces and classes (Map, Promise, ...) are runtime objects: `Partial<T>`,
  // `Record<K, V>` and other library *mapped types* are plain data shapes.
  const symbol = type.getSymbol();
  const runtimeObject = symbol !== undefined && (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) !== 0 && !symbol.name.startsWith('__');
  if (symbol && runtimeObject && (symbol.declarations ?? []).some((d) => ctx.isLibFile(d.getSourceFile()))) {
    return LIB_TYPE_HINTS[symbol.name] ?? `'${symbol.name}' is a runtime object, not JSON data; take a plain object or string instead.`;
  }
  if (symbol && symbol.flags & ts.SymbolFlags.Class) {
    const hasMethods = ctx.checker.getPropertiesOfType(type).some((p) => p.flags & ts.SymbolFlags.Method);
    if (hasMethods) return `Instances of class '${symbol.name}' have methods, which JSON cannot carry; take an interface of its data instead.`;
  }
  return undefined;
}

/**
 * Interfaces, type literals, intersections of objects and mapped types (Partial, Pick, Omit,
 * Readonly, Required, Record): one closed object per type, properties in declaration order.
 * String index signatures (and `Record<string, T>`) become `additionalProperties`.
 * @example async function f(options: { depth?: number; follow: boolean }) {}
 */
export const objectMapper: TypeMapper = {
  name: 'object',
  supports: (type) => (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0,
  map: (type, ctx) => ctx.definitions.withDefinition(type, () => mapObject(type, ctx)),
};

function mapObject(type: ts.Type, ctx: MapContext): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of ctx.checker.getPropertiesOfType(type)) {
    if (property.escapedName.toString().startsWith('__@')) continue; // symbol-keyed: invisible in JSON
    if (property.name === 'typia.tag') continue; // typia's phantom tag carrier, not data
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const position: TypePosition = {
      path: ctx.position.path ? `${ctx.position.path}.${property.name}` : property.name,
      role: 'Property',
      node: reportNode(declaration, ctx.position.node),
    };
    const propertyType = ctx.checker.getTypeOfSymbol(property);
    let schema = ctx.mapType(propertyType, position);
    const aliasDocs = aliasDocsOfTypeNode((declaration as { type?: ts.TypeNode } | undefined)?.type, ctx);
    if (aliasDocs) schema = applyDocTags(schema, aliasDocs, { ...ctx, position });
    if (declaration) schema = applyDocTags(schema, ctx.docs.read(declaration), { ...ctx, position });
    properties[property.name] = schema;
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 || includesUndefined(propertyType);
    if (!optional) required.push(property.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = indexSignatureSchema(type, ctx) ?? false;
  return schema;
}

function indexSignatureSchema(type: ts.Type, ctx: MapContext): JsonSchema | undefined {
  const info = ctx.checker.getIndexInfosOfType(type).find((index) => index.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.Number));
  if (!info) return undefined;
  const position: TypePosition = { ...ctx.position, path: `${ctx.position.path}[string]`, role: 'Property' };
  return ctx.mapType(info.type, position);
}

/** Problems inside a type are reported at its declaration when that is the user's own code. */
function reportNode(declaration: ts.Declaration | undefined, fallback: ts.Node): ts.Node {
  if (!declaration || declaration.getSourceFile().isDeclarationFile) return fallback;
  const typed = declaration as ts.Declaration & { type?: ts.TypeNode };
  return typed.type ?? declaration;
}

export function includesUndefined(type: ts.Type): boolean {
  if (type.flags & ts.TypeFlags.Undefined) return true;
  return type.isUnion() && type.types.some((member) => (member.flags & ts.TypeFlags.Undefined) !== 0);
}
