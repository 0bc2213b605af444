import { ts } from '../front-end/typescript.js';
import type { JsonSchema, JsonValue } from '@toolwright/schema';
import type { TypeMapper } from './type-mapper.js';

/** The JSON value of a literal type, or undefined when the type is not a literal. */
export function literalValue(type: ts.Type, checker: ts.TypeChecker): { value: JsonValue } | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return { value: type.value };
  if (type.flags & ts.TypeFlags.BooleanLiteral) return { value: booleanLiteralValue(type, checker) };
  if (type.flags & ts.TypeFlags.Null) return { value: null };
  return undefined;
}

/** `true` or `false` for a boolean literal type (the checker's own two, else by the type's text: fresh literals). */
export function booleanLiteralValue(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type === checker.getTrueType()) return true;
  if (type === checker.getFalseType()) return false;
  return checker.typeToString(type) === 'true';
}

export function jsonTypeOf(value: JsonValue): 'string' | 'number' | 'boolean' | 'null' {
  if (value === null) return 'null';
  return typeof value as 'string' | 'number' | 'boolean';
}

/**
 * A single string, number or boolean literal, or one member of a TS enum.
 * @example async function f(mode: 'fast') {}   // { "type": "string", "const": "fast" }
 */
export const literalMapper: TypeMapper = {
  name: 'literal',
  supports: (type, ctx) => (type.flags & ts.TypeFlags.Null) === 0 && literalValue(type, ctx.checker) !== undefined,
  map: (type, ctx): JsonSchema => {
    const { value } = literalValue(type, ctx.checker)!;
    return { type: jsonTypeOf(value), const: value };
  },
};
