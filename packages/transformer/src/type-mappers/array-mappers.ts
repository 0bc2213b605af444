import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import type { MapContext, TypeMapper, TypePosition } from './type-mapper.js';
import { elementTypeNode, unwrapParentheses } from './type-syntax.js';

/**
 * Tuples: fixed positions become `prefixItems`; optional elements lower `minItems`; a rest element
 * becomes `items`, otherwise extra items are refused.
 * @example async function f(range: [start: number, end?: number]) {}
 */
export const tupleMapper: TypeMapper = {
  name: 'tuple',
  supports: (type, ctx) => ctx.checker.isTupleType(type),
  map: (type, ctx) => {
    const reference = type as ts.TypeReference;
    const target = reference.target as ts.TupleType;
    const elements = ctx.checker.getTypeArguments(reference);
    const nodes = tupleElementNodes(ctx.position.typeNode);
    const prefixItems: JsonSchema[] = [];
    let minItems = 0;
    let rest: JsonSchema | undefined;
    elements.forEach((element, index) => {
      const flags = target.elementFlags[index] ?? ts.ElementFlags.Required;
      const position = elementPosition(ctx, `[${index}]`, nodes?.[index]);
      if (flags & ts.ElementFlags.Variable) {
        const restType = flags & ts.ElementFlags.Rest ? element : (ctx.checker.getIndexTypeOfType(element, ts.IndexKind.Number) ?? element);
        rest = ctx.mapType(restType, position);
        return;
      }
      if (flags & ts.ElementFlags.Required) minItems = index + 1;
      prefixItems.push(ctx.mapType(element, position));
    });
    const schema: JsonSchema = { type: 'array', prefixItems, minItems };
    if (rest) schema.items = rest;
    else {
      schema.items = false;
      schema.maxItems = prefixItems.length;
    }
    return schema;
  },
};

/**
 * `T[]`, `Array<T>`, `readonly T[]` and `ReadonlyArray<T>`. The element keeps the docs of an alias
 * written there (`Ipv4[]`), which the checker forgets.
 * @example async function f(paths: readonly string[]) {}   // { "type": "array", "items": { "type": "string" } }
 */
export const arrayMapper: TypeMapper = {
  name: 'array',
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  map: (type, ctx) => {
    const [element] = ctx.checker.getTypeArguments(type as ts.TypeReference);
    return { type: 'array', items: element ? ctx.mapType(element, elementPosition(ctx, '[]', elementTypeNode(ctx.position.typeNode))) : {} };
  },
};

/**
 * Interfaces and classes that extend `Array` or `ReadonlyArray` with nothing of their own are arrays.
 * @example interface Tags extends Array<string> {}   async function f(tags: Tags) {}   // { "type": "array", ... }
 */
export const arrayLikeMapper: TypeMapper = {
  name: 'array-like',
  supports: (type, ctx) => extendsArray(type, ctx.checker),
  map: (type, ctx) => {
    const own = ownMembers(type);
    if (own.length > 0) return ctx.unsupported(type, 'arrayWithMembers', { name: type.getSymbol()?.name ?? 'array', members: own.join(', ') });
    const element = ctx.checker.getIndexTypeOfType(type, ts.IndexKind.Number);
    return { type: 'array', items: element ? ctx.mapType(element, elementPosition(ctx, '[]', undefined)) : {} };
  },
};

function elementPosition(ctx: MapContext, suffix: string, typeNode: ts.TypeNode | undefined): TypePosition {
  const { typeNode: _parent, ...position } = ctx.position;
  return { ...position, path: `${ctx.position.path}${suffix}`, role: 'element', ...(typeNode ? { typeNode } : {}) };
}

function tupleElementNodes(node: ts.TypeNode | undefined): (ts.TypeNode | undefined)[] | undefined {
  if (!node) return undefined;
  let inner = unwrapParentheses(node);
  if (ts.isTypeOperatorNode(inner) && inner.operator === ts.SyntaxKind.ReadonlyKeyword) inner = unwrapParentheses(inner.type);
  if (!ts.isTupleTypeNode(inner)) return undefined;
  return inner.elements.map((element) => {
    let current: ts.TypeNode = ts.isNamedTupleMember(element) ? element.type : element;
    if (ts.isOptionalTypeNode(current)) current = current.type;
    return ts.isRestTypeNode(current) ? undefined : current;
  });
}

function extendsArray(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (!(type.flags & ts.TypeFlags.Object) || checker.isArrayType(type) || checker.isTupleType(type)) return false;
  const target = ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0 ? (type as ts.TypeReference).target : type;
  if (!((target as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return false;
  const visit = (current: ts.InterfaceType, seen: Set<ts.Type>): boolean =>
    (checker.getBaseTypes(current) ?? []).some((base) => {
      if (checker.isArrayType(base)) return true;
      const baseTarget = ((base as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0 ? (base as ts.TypeReference).target : base;
      if (seen.has(baseTarget) || !((baseTarget as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return false;
      seen.add(baseTarget);
      return visit(baseTarget as ts.InterfaceType, seen);
    });
  return visit(target as ts.InterfaceType, new Set([target]));
}

/** Members declared by the interfaces and classes of the chain themselves (not inherited from Array). */
function ownMembers(type: ts.Type): string[] {
  const names: string[] = [];
  for (const declaration of type.getSymbol()?.declarations ?? []) {
    if (!ts.isInterfaceDeclaration(declaration) && !ts.isClassDeclaration(declaration)) continue;
    for (const member of declaration.members) {
      if (ts.isConstructorDeclaration(member)) continue;
      names.push(member.name ? member.name.getText() : '[index]');
    }
  }
  return names;
}
