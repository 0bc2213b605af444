import ts from 'typescript';

/**
 * The expression the emitted JS carries for a declaration: `JSON.parse('...')` with the JSON as one
 * string literal. One node instead of an object-literal tree per keyword makes emitting and printing
 * cheap (measured on the 100-tool benchmark project), and engines parse JSON faster than object literals.
 * Single quotes, because JSON is full of double quotes: the printer escapes almost nothing.
 */
export function jsonParseExpression(value: unknown, factory: ts.NodeFactory = ts.factory): ts.Expression {
  return factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier('JSON'), 'parse'), undefined, [
    factory.createStringLiteral(JSON.stringify(value), true),
  ]);
}

/** Builds a literal expression for a JSON-compatible value. */
export function jsonExpression(value: unknown, factory: ts.NodeFactory = ts.factory): ts.Expression {
  if (value === null) return factory.createNull();
  if (typeof value === 'string') return factory.createStringLiteral(value);
  if (typeof value === 'boolean') return value ? factory.createTrue() : factory.createFalse();
  if (typeof value === 'number') {
    return value < 0
      ? factory.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, factory.createNumericLiteral(-value))
      : factory.createNumericLiteral(value);
  }
  if (Array.isArray(value))
    return factory.createArrayLiteralExpression(
      value.map((item) => jsonExpression(item, factory)),
      false,
    );
  if (typeof value === 'object') {
    const properties = Object.entries(value as Record<string, unknown>)
      .filter(([, child]) => child !== undefined)
      .map(([key, child]) => factory.createPropertyAssignment(factory.createStringLiteral(key), jsonExpression(child, factory)));
    return factory.createObjectLiteralExpression(properties, false);
  }
  throw new TypeError(`Toolwright bug: cannot emit a ${typeof value} as JSON`);
}
