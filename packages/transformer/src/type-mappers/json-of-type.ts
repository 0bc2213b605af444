import { ts } from '../front-end/typescript.js';
import type { JsonValue } from '@toolwright/schema';
import { booleanLiteralValue } from './literal-mapper.js';

/**
 * The JSON value a type *describes*, for types that are written as values: literals, tuples and
 * object literal types (typia tags carry their schema this way: `schema: { minimum: 0 }`).
 */
export function jsonOfType(type: ts.Type, checker: ts.TypeChecker): JsonValue | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & ts.TypeFlags.BooleanLiteral) return booleanLiteralValue(type, checker);
  if (type.flags & ts.TypeFlags.Null) return null;
  if (checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as ts.TypeReference).map((item) => jsonOfType(item, checker));
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  if (type.flags & ts.TypeFlags.Object) {
    const result: Record<string, JsonValue> = {};
    for (const property of checker.getPropertiesOfType(type)) {
      const value = jsonOfType(checker.getNonNullableType(checker.getTypeOfSymbol(property)), checker);
      if (value !== undefined) result[property.name] = value;
    }
    return result;
  }
  return undefined;
}
