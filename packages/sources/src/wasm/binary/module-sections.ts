import { ByteReader } from './byte-reader.js';
import { concatBytes, u32Bytes } from './byte-writer.js';
import { WasmFormatError } from './wasm-format-error.js';

/** The section ids this runner reads or writes (the others are carried over unchanged). */
export const SectionId = { custom: 0, import: 2, table: 4, memory: 5, global: 6, export: 7, start: 8, code: 10 } as const;

/** One section of a module: its id and its payload (without the id and size). */
export interface Section {
  id: number;
  payload: Uint8Array;
}

const HEADER = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);

/**
 * Where each known section id must stand (the binary format fixes their order; custom sections may
 * stand anywhere): type, import, function, table, memory, tag, global, export, start, element,
 * data count, code, data.
 */
const ORDER = new Map([1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11].map((id, rank) => [id, rank]));

/** Splits a module into its sections; refuses what is not a version-1 module. */
export function splitSections(bytes: Uint8Array): Section[] {
  if (bytes.length < HEADER.length || HEADER.some((byte, i) => bytes[i] !== byte)) {
    throw new WasmFormatError('the file is not a WebAssembly module (no `\\0asm` version 1 header)');
  }
  const reader = new ByteReader(bytes, HEADER.length);
  const sections: Section[] = [];
  while (!reader.done) {
    const id = reader.u8();
    const payload = reader.take(reader.u32());
    sections.push({ id, payload });
  }
  return sections;
}

export function joinSections(sections: readonly Section[]): Uint8Array {
  return concatBytes([HEADER, ...sections.flatMap(({ id, payload }) => [Uint8Array.from([id, ...u32Bytes(payload.length)]), payload])]);
}

/** Puts `section` where its id belongs: in place of one with the same id, else before the first that must follow it. */
export function placeSection(sections: Section[], section: Section): void {
  const same = sections.findIndex(({ id }) => id === section.id);
  if (same !== -1) {
    sections[same] = section;
    return;
  }
  const rank = ORDER.get(section.id);
  if (rank === undefined) throw new WasmFormatError(`section ${section.id} has no fixed place`);
  const after = sections.findIndex(({ id }) => (ORDER.get(id) ?? -1) > rank);
  sections.splice(after === -1 ? sections.length : after, 0, section);
}
