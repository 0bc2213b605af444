import { concatBytes, nameBytes, u32Bytes, vectorBytes } from '../binary/byte-writer.js';

/** Hand-written modules for the binary rewriter's tests: each section as its id and its entries. */
export interface ModuleParts {
  types?: number[][];
  imports?: number[][];
  functions?: number[];
  tables?: number[][];
  memories?: number[][];
  globals?: number[][];
  exports?: number[][];
  start?: number;
  /** Each function body's locals and instructions, without the size (the builder adds it). */
  code?: number[][];
}

const bytes = (entries: number[][]) => entries.map((entry) => Uint8Array.from(entry));

function section(id: number, payload: Uint8Array): Uint8Array {
  return concatBytes([Uint8Array.of(id, ...u32Bytes(payload.length)), payload]);
}

export function moduleBytes(parts: ModuleParts): Uint8Array {
  const sections: Uint8Array[] = [Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00)];
  const vector = (id: number, entries: number[][] | undefined) => {
    if (entries) sections.push(section(id, vectorBytes(entries.length, bytes(entries))));
  };
  vector(1, parts.types);
  vector(2, parts.imports);
  if (parts.functions) sections.push(section(3, Uint8Array.from([...u32Bytes(parts.functions.length), ...parts.functions.flatMap(u32Bytes)])));
  vector(4, parts.tables);
  vector(5, parts.memories);
  vector(6, parts.globals);
  vector(7, parts.exports);
  if (parts.start !== undefined) sections.push(section(8, Uint8Array.from(u32Bytes(parts.start))));
  vector(
    10,
    parts.code?.map((body) => [...u32Bytes(body.length), ...body]),
  );
  return concatBytes(sections);
}

/** An export entry: its name, its kind (0 function, 2 memory, 3 global) and its index. */
export function exported(name: string, kind: number, index: number): number[] {
  return [...nameBytes(name), kind, ...u32Bytes(index)];
}

/** An import entry of a memory with the given limits bytes. */
export function importedMemory(module: string, name: string, limits: number[]): number[] {
  return [...nameBytes(module), ...nameBytes(name), 0x02, ...limits];
}
