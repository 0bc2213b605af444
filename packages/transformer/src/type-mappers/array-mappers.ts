import ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';
import type { TypeMapper } from './type-mapper.js';

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
    const prefixItems: JsonSchema[] = [];
    let minItems = 0;
    let rest: JsonSchema | undefined;
    elements.forEach((element, index) => {
      const flags = target.elementFlags[index] ?? ts.ElementFlags.Required;
      const position = { ...ctx.position, path: `${ctx.position.path}[${index}]`, role: 'Element' };
      if (flags & ts.ElementFlags.Variable) {
        const restType = flags & ts.ElementFlags.Rest ? element : ctx.checker.getIndexTypeOfType(element, ts.IndexKind.Number) ?? element;
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
 * `T[]`, `Array<T>`, `readonly T[]` and `ReadonlyArray<T>`.
 * @example async function f(paths: readonly string[]) {}   // { "type": "array", "items": { "type": "string" } }
 */
export const arrayMapper: TypeMapper = {
  name: 'array',
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  map: (type, ctx) => {
    const [element] = ctx.checker.getTypeArguments(type as ts.TypeReference);
    const position = { ...ctx.position, path: `${ctx.position.path}[]`, role: 'Element' };
    return { type: 'array', items: element ? ctx.mapType(element, position) : {} };
  },
};
