import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import { jsonOfType } from './json-of-type.js';
import type { MapContext, TypeMapper } from './type-mapper.js';

const TYPIA_TAG = 'typia.tag';

/** `Integer` from @toolwright/schema: a number branded with the `integerBrand` unique symbol. */
function isIntegerBrand(member: ts.Type, ctx: MapContext): boolean {
  return (
    (member.flags & ts.TypeFlags.Object) !== 0 && ctx.checker.getPropertiesOfType(member).some((p) => p.escapedName.toString().startsWith('__@integerBrand@'))
  );
}

function typiaTagSchema(member: ts.Type, ctx: MapContext): JsonSchema | undefined {
  if (!(member.flags & ts.TypeFlags.Object)) return undefined;
  const tag = ctx.checker.getPropertyOfType(member, TYPIA_TAG);
  if (!tag) return undefined;
  const props = ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(tag));
  const schemaProperty = ctx.checker.getPropertyOfType(props, 'schema');
  if (!schemaProperty) return {};
  const value = jsonOfType(ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(schemaProperty)), ctx.checker);
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** The flags of a primitive, read from the compiler in use (each numbers them its own way). */
const primitive = () => ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike;

/**
 * Intersections that refine one base type: the `Integer` brand, typia type tags, and branded
 * primitives. The base is mapped as usual; tags add their keywords; brands vanish (JSON cannot see them).
 * @example async function f(count: Integer) {}                                  // { "type": "integer" }
 * @example async function f(email: string & tags.Format<'email'>) {}            // { "type": "string", "format": "email" }
 * @example async function f(id: string & { readonly __brand: 'UserId' }) {}     // { "type": "string" }
 */
export const taggedIntersectionMapper: TypeMapper = {
  name: 'tagged-intersection',
  supports: (type, ctx) => {
    if (!type.isIntersection()) return false;
    return type.types.some((m) => (m.flags & primitive()) !== 0 || isIntegerBrand(m, ctx) || typiaTagSchema(m, ctx) !== undefined);
  },
  map: (type, ctx) => {
    const members = (type as ts.IntersectionType).types;
    const tags: JsonSchema[] = [];
    let integer = false;
    const bases: ts.Type[] = [];
    for (const member of members) {
      if (isIntegerBrand(member, ctx)) integer = true;
      else {
        const tag = typiaTagSchema(member, ctx);
        if (tag) tags.push(tag);
        else bases.push(member);
      }
    }
    const primitiveBase = bases.find((m) => (m.flags & primitive()) !== 0);
    let schema: JsonSchema;
    if (primitiveBase) schema = ctx.mapType(primitiveBase);
    else if (bases.length === 1) schema = ctx.mapType(bases[0]!);
    else return ctx.unsupported(type, 'mixedIntersection');
    if (integer && schema.type === 'number') schema = { ...schema, type: 'integer' };
    for (const tag of tags) schema = { ...schema, ...tag };
    return schema;
  },
};
