import { ts } from '../front-end/typescript.js';
import type { TypeMapper, UnsupportedReason } from './type-mapper.js';

/** Keywords with no JSON form, by the flags of the compiler in use (each numbers them its own way). */
const noJsonKeywords = (): readonly { flag: ts.TypeFlags; reason: UnsupportedReason }[] => [
  { flag: ts.TypeFlags.Never, reason: 'never' },
  { flag: ts.TypeFlags.Void, reason: 'void' },
  { flag: ts.TypeFlags.Undefined, reason: 'undefined' },
  { flag: ts.TypeFlags.ESSymbolLike, reason: 'symbol' },
  { flag: ts.TypeFlags.BigIntLike, reason: 'bigint' },
];

/**
 * Keyword types with no JSON form: never, void, undefined, symbol, bigint.
 * @example async function f(value: symbol) {}   // TW1002
 */
export const noJsonKeywordMapper: TypeMapper = {
  name: 'no-json-keyword',
  supports: (type) => noJsonKeywords().some(({ flag }) => (type.flags & flag) !== 0),
  map: (type, ctx) => ctx.unsupported(type, noJsonKeywords().find(({ flag }) => (type.flags & flag) !== 0)!.reason),
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
