import type { ts } from '../front-end/typescript.js';
import type { UnsupportedReason } from './type-mapper.js';

/** Whether the type's symbol is declared in one of TypeScript's default library files (lib.*.d.ts). */
export function isLibType(type: ts.Type, isLibFile: (file: ts.SourceFile) => boolean, names?: readonly string[]): boolean {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return false;
  if (names && !names.includes(symbol.name)) return false;
  return (symbol.declarations ?? []).some((decl) => isLibFile(decl.getSourceFile()));
}

/** Well-known library types with no JSON form, and the catalogue hint for each (diagnostics.ts). */
export const LIB_TYPE_REASONS: Readonly<Record<string, UnsupportedReason>> = {
  Map: 'map',
  ReadonlyMap: 'map',
  Set: 'set',
  ReadonlySet: 'set',
  WeakMap: 'weakCollection',
  WeakSet: 'weakCollection',
  Promise: 'promise',
  PromiseLike: 'promise',
  RegExp: 'regexp',
  Error: 'error',
  Function: 'callback',
  Uint8Array: 'binary',
  ArrayBuffer: 'binary',
  Buffer: 'binary',
  URL: 'url',
};
