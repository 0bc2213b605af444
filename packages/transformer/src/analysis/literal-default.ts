import { ts } from '../front-end/typescript.js';
import type { JsonValue } from '@toolwright/schema';
import { unwrapExpression } from './tool-options.js';

/**
 * The JSON value of a parameter initialiser written as a literal, or undefined when it is an expression.
 * @example async function f(limit = 100, mode = 'fast', tags = ['a'], range = { from: -1 }) {}
 */
export function literalDefault(expression: ts.Expression): { value: JsonValue } | undefined {
  const node = unwrapExpression(expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { value: node.text };
  if (ts.isNumericLiteral(node)) return { value: Number(node.text.replace(/_/g, '')) };
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return { value: -Number(node.operand.text.replace(/_/g, '')) };
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { value: true };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { value: false };
  if (node.kind === ts.SyntaxKind.NullKeyword) return { value: null };
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((element) => literalDefault(element));
    return items.every((item) => item !== undefined) ? { value: items.map((item) => item.value) } : undefined;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const result: Record<string, JsonValue> = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) return undefined;
      const value = literalDefault(property.initializer);
      if (!value) return undefined;
      result[property.name.text] = value.value;
    }
    return { value: result };
  }
  return undefined;
}
