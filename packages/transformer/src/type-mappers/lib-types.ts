import ts from 'typescript';

/** Whether the type's symbol is declared in one of TypeScript's default library files (lib.*.d.ts). */
export function isLibType(type: ts.Type, isLibFile: (file: ts.SourceFile) => boolean, names?: readonly string[]): boolean {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return false;
  if (names && !names.includes(symbol.name)) return false;
  return (symbol.declarations ?? []).some((decl) => isLibFile(decl.getSourceFile()));
}

/** Hints for well-known library types with no JSON form. */
export const LIB_TYPE_HINTS: Record<string, string> = {
  Map: 'Use Record<string, V> (a JSON object) instead of a Map.',
  ReadonlyMap: 'Use Record<string, V> (a JSON object) instead of a Map.',
  Set: 'Use an array (V[]) instead of a Set, with `@uniqueItems` if order does not matter.',
  ReadonlySet: 'Use an array (V[]) instead of a Set, with `@uniqueItems` if order does not matter.',
  WeakMap: 'Weak collections cannot be serialised; take plain data instead.',
  WeakSet: 'Weak collections cannot be serialised; take plain data instead.',
  Promise: 'Take the resolved value; tool arguments are plain JSON data.',
  PromiseLike: 'Take the resolved value; tool arguments are plain JSON data.',
  RegExp: 'Take the pattern as a string (with `@format regex`) and build the RegExp inside the tool.',
  Error: 'Take a message string or a plain object describing the error.',
  Function: 'Tools receive data, not callbacks: take a value that describes what to do.',
  Uint8Array: 'Take binary data as a base64 string (`@format byte`) and decode it inside the tool.',
  ArrayBuffer: 'Take binary data as a base64 string (`@format byte`) and decode it inside the tool.',
  Buffer: 'Take binary data as a base64 string (`@format byte`) and decode it inside the tool.',
  URL: 'Take the URL as a string with `@format uri` and parse it inside the tool.',
};
