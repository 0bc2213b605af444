import { ts } from '../front-end/typescript.js';
import type { TypeMapper } from './type-mapper.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * What TypeScript accepts for `${number}`: any string `+s` reads as a finite number (TypeScript's
 * `isValidNumberString`): decimals with sign, fraction and exponent, hex, octal and binary, with
 * surrounding whitespace. Only a string of nothing but whitespace, which TypeScript also accepts, is refused.
 */
const NUMBER_HOLE = '\\s*(?:[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)\\s*';
/** What TypeScript accepts for `${bigint}`: integers with an optional minus, also hex, octal and binary. */
const BIGINT_HOLE = '-?(?:\\d+|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)';

function holePattern(type: ts.Type, checker: ts.TypeChecker): string {
  if (type.flags & ts.TypeFlags.String) return '.*';
  if (type.flags & ts.TypeFlags.Number) return `(?:${NUMBER_HOLE})`;
  if (type.flags & ts.TypeFlags.BigInt) return `(?:${BIGINT_HOLE})`;
  if (type.flags & ts.TypeFlags.Boolean) return '(?:true|false)';
  if (type.isStringLiteral() || type.isNumberLiteral()) return escapeRegExp(String(type.value));
  if (type.isUnion()) return `(?:${type.types.map((member) => holePattern(member, checker)).join('|')})`;
  return '.*';
}

/**
 * Template literal types become a string with an anchored `pattern`.
 * @example async function f(id: `user-${number}`) {}   // { "type": "string", "pattern": "^user-\\d+..." }
 */
export const templateLiteralMapper: TypeMapper = {
  name: 'template-literal',
  supports: (type) => (type.flags & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) !== 0,
  map: (type, ctx) => {
    if (!(type.flags & ts.TypeFlags.TemplateLiteral)) return { type: 'string' };
    const template = type as ts.TemplateLiteralType;
    let pattern = `^${escapeRegExp(template.texts[0] ?? '')}`;
    template.types.forEach((hole, index) => {
      pattern += holePattern(hole, ctx.checker) + escapeRegExp(template.texts[index + 1] ?? '');
    });
    return { type: 'string', pattern: `${pattern}$` };
  },
};
