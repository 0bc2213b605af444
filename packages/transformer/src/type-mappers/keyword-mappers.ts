import ts from 'typescript';
import type { TypeMapper } from './type-mapper.js';

const NO_JSON_KEYWORDS: Record<string, { flag: ts.TypeFlags; hint: string }> = {
  any: { flag: ts.TypeFlags.Any, hint: "'any' says nothing the model can follow; write the type the tool expects." },
  unknown: { flag: ts.TypeFlags.Unknown, hint: 'Write the type the tool expects; the executor validates it before the call.' },
  never: { flag: ts.TypeFlags.Never, hint: "No value has type 'never'; remove the parameter or give it a type." },
  void: { flag: ts.TypeFlags.Void, hint: "'void' has no value to send; remove the parameter." },
  undefined: { flag: ts.TypeFlags.Undefined, hint: 'Make the parameter optional (`name?: T`) instead of typing it undefined.' },
  symbol: { flag: ts.TypeFlags.ESSymbolLike, hint: 'Symbols do not survive JSON; use a string.' },
  bigint: { flag: ts.TypeFlags.BigIntLike, hint: 'JSON numbers lose bigint precision; take a string of digits and parse it with BigInt().' },
};

/**
 * Keyword types with no JSON form: any, unknown, never, void, undefined, symbol, bigint.
 * @example async function f(value: any) {}   // TW1002
 */
export const noJsonKeywordMapper: TypeMapper = {
  name: 'no-json-keyword',
  supports: (type) => Object.values(NO_JSON_KEYWORDS).some(({ flag }) => (type.flags & flag) !== 0),
  map: (type, ctx) => {
    const entry = Object.values(NO_JSON_KEYWORDS).find(({ flag }) => (type.flags & flag) !== 0)!;
    return ctx.unsupported(type, entry.hint);
  },
};

/** @example async function f(marker: null) {}  // { "type": "null" } */
export const nullMapper: TypeMapper = {
  name: 'null',
  supports: (type) => (type.flags & ts.TypeFlags.Null) !== 0,
  map: () => ({ type: 'null' }),
};

/** @example async function f(path: string) {} */
export const stringMapper: TypeMapper = {
  name: 'string',
  supports: (type) => (type.flags & ts.TypeFlags.String) !== 0,
  map: () => ({ type: 'string' }),
};

/** @example async function f(limit: number) {} */
export const numberMapper: TypeMapper = {
  name: 'number',
  supports: (type) => (type.flags & ts.TypeFlags.Number) !== 0,
  map: () => ({ type: 'number' }),
};

/** `boolean` is the union `true | false` to the checker; it is matched before unions. */
export const booleanMapper: TypeMapper = {
  name: 'boolean',
  supports: (type) => (type.flags & ts.TypeFlags.Boolean) !== 0,
  map: () => ({ type: 'boolean' }),
};
