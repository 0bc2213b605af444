import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import { applyDocTags } from './constraint-tags.js';
import type { MapContext, TypePosition } from './type-mapper.js';

/** A named member of an argument object: a parameter of the tool or a property of an object type. */
export interface Member {
  name: string;
  role: 'parameter' | 'property';
  type: ts.Type;
  /** The parameter or property declaration, when there is one. */
  declaration: ts.Declaration | undefined;
  /** Written optional: `name?: T`, a parameter with a default, an optional mapped property. */
  optional: boolean;
}

/**
 * One path for parameters and properties: the type is mapped with its syntax (so aliases the
 * checker forgets keep their docs), the member's own JSDoc is applied last, and a member is required
 * unless it is written optional or its type admits `undefined` (or `void`).
 * @example async function f(/** @minimum 1 *\/ limit?: number) {}   interface Q { /** @format uri *\/ url: string }
 */
export function mapMember(member: Member, ctx: MapContext): { schema: JsonSchema; required: boolean } {
  const { declaration } = member;
  const typeNode = (declaration as { type?: ts.TypeNode } | undefined)?.type;
  const position: TypePosition = {
    path: ctx.position.path ? `${ctx.position.path}.${member.name}` : member.name,
    role: member.role,
    node: reportNode(declaration, ctx.position.node),
    ...(typeNode ? { typeNode } : {}),
  };
  let schema = ctx.mapType(member.type, position);
  if (declaration) {
    schema = applyDocTags(schema, ctx.docs.read(declaration), { position, report: (key, args, node) => ctx.report(key, args, node ?? position.node) });
  }
  return { schema, required: !member.optional && !includesUndefined(member.type) };
}

/** Problems inside a type are reported at its declaration when that is the user's own code. */
export function reportNode(declaration: ts.Declaration | undefined, fallback: ts.Node): ts.Node {
  if (!declaration || declaration.getSourceFile().isDeclarationFile) return fallback;
  const typed = declaration as ts.Declaration & { type?: ts.TypeNode };
  return typed.type ?? declaration;
}

/** `undefined` and `void`, by the flags of the compiler in use. */
const nothing = () => ts.TypeFlags.Undefined | ts.TypeFlags.Void;

/** `T | undefined` and `T | void` make a member optional: JSON has no undefined. */
export function includesUndefined(type: ts.Type): boolean {
  if (type.flags & nothing()) return true;
  return type.isUnion() && type.types.some((member) => (member.flags & nothing()) !== 0);
}

/** A type with no value but `undefined`: a property of this type is left out of the object. */
export function isOnlyUndefined(type: ts.Type): boolean {
  if (type.flags & nothing()) return true;
  return type.isUnion() && type.types.every((member) => (member.flags & nothing()) !== 0);
}
