import { ByteReader } from './byte-reader.js';
import { concatBytes, nameBytes, s64Bytes, u32Bytes, vectorBytes } from './byte-writer.js';
import { skipValueType } from './instructions.js';
import { capLimits, limitsBytes, readLimits } from './limits.js';
import { MemoryCapError } from './memory-cap-error.js';
import { meterCode } from './meter-code.js';
import { capImports, type ImportedMemory } from './module-imports.js';
import { joinSections, placeSection, SectionId, splitSections } from './module-sections.js';
import { WasmFormatError } from './wasm-format-error.js';

/** What the runner adds to a module's exports: the fuel left, the last `memory.grow` result, the start function. */
export const RUNNER_EXPORTS = { fuel: '__toolwright_fuel', grow: '__toolwright_grow', start: '__toolwright_start' } as const;

/** The most entries a table may grow to (8 MiB of references), whatever the module declares. */
export const MAX_TABLE_ENTRIES = 1 << 20;

export interface PreparedModule {
  bytes: Uint8Array;
  importedMemories: ImportedMemory[];
}

/**
 * Rewrites a module so its limits hold whatever its code does: it may have one memory at most (the cap
 * is the module's, and more memories would multiply it), whose maximum (defined or imported) is capped
 * at `capPages`, and every table's at `MAX_TABLE_ENTRIES`, so `memory.grow` past them fails as the
 * specification allows; every function entry and loop iteration is metered against a fuel global (see
 * `meterCode`); and the start function becomes an export the runner calls once the fuel is set, so it
 * is metered too. The input must already have passed `WebAssembly.validate`: the new
 * globals take indices the original module could not have referred to.
 */
export function prepareModule(original: Uint8Array, capPages: number): PreparedModule {
  const sections = splitSections(original);
  const payloadOf = (id: number) => sections.find((section) => section.id === id)?.payload;
  const replace = (id: number, payload: Uint8Array | undefined) => {
    if (payload) placeSection(sections, { id, payload });
  };
  const imports = payloadOf(SectionId.import) && capImports(payloadOf(SectionId.import)!, capPages);
  refuseManyMemories(imports?.memories.length ?? 0, payloadOf(SectionId.memory));
  replace(SectionId.import, imports?.payload);
  replace(
    SectionId.memory,
    mapVector(payloadOf(SectionId.memory), (reader) => cappedLimits(reader, 'memory', capPages)),
  );
  replace(SectionId.table, mapVector(payloadOf(SectionId.table), tableType));

  const ownGlobals = payloadOf(SectionId.global);
  const fuel = (imports?.globals ?? 0) + (ownGlobals ? new ByteReader(ownGlobals).u32() : 0);
  const grow = fuel + 1;
  // A mutable i64 and a mutable i32, both starting at zero: the runner sets the fuel before each call.
  const newGlobals = [Uint8Array.from([0x7e, 0x01, 0x42, ...s64Bytes(0n), 0x0b]), Uint8Array.from([0x7f, 0x01, 0x41, 0x00, 0x0b])];
  placeSection(sections, { id: SectionId.global, payload: appendToVector(ownGlobals, newGlobals) });

  const start = payloadOf(SectionId.start);
  const newExports = [exportEntry(RUNNER_EXPORTS.fuel, 0x03, fuel), exportEntry(RUNNER_EXPORTS.grow, 0x03, grow)];
  if (start) {
    newExports.push(exportEntry(RUNNER_EXPORTS.start, 0x00, new ByteReader(start).u32()));
    sections.splice(
      sections.findIndex((section) => section.id === SectionId.start),
      1,
    );
  }
  const ownExports = payloadOf(SectionId.export);
  refuseRunnerNames(ownExports);
  placeSection(sections, { id: SectionId.export, payload: appendToVector(ownExports, newExports) });

  const code = payloadOf(SectionId.code);
  if (code) replace(SectionId.code, meterCode(code, { fuel, grow }));
  return { bytes: joinSections(sections), importedMemories: imports?.memories ?? [] };
}

/** Refuses a module with more than one memory, imported and defined together, whether or not this V8 runs it. */
function refuseManyMemories(imported: number, memorySection: Uint8Array | undefined): void {
  const defined = memorySection ? new ByteReader(memorySection).u32() : 0;
  if (imported + defined > 1)
    throw new WasmFormatError(
      `the module has ${imported + defined} memories (${imported} imported, ${defined} defined); the runner runs modules with at most one, since its memory cap (maxMemory) is for the module as a whole`,
    );
}

function cappedLimits(reader: ByteReader, what: 'memory' | 'table', cap: number): Uint8Array {
  const declared = readLimits(reader);
  const capped = capLimits(declared, cap);
  if (!capped) throw new MemoryCapError(what, declared.min, cap);
  return Uint8Array.from(limitsBytes(capped));
}

function tableType(reader: ByteReader): Uint8Array {
  const start = reader.offset;
  // A table with an initialiser expression (0x40 0x00, the GC proposal) is not read here.
  if (reader.bytes[start] === 0x40) throw new WasmFormatError('the module has a table with an initialiser, which this runner does not support');
  skipValueType(reader);
  const type = reader.bytes.subarray(start, reader.offset);
  return concatBytes([type, cappedLimits(reader, 'table', MAX_TABLE_ENTRIES)]);
}

/** Rewrites each element of a vector section, or nothing when the module has no such section. */
function mapVector(payload: Uint8Array | undefined, map: (reader: ByteReader) => Uint8Array): Uint8Array | undefined {
  if (!payload) return undefined;
  const reader = new ByteReader(payload);
  const count = reader.u32();
  const elements = Array.from({ length: count }, () => map(reader));
  if (!reader.done) throw new WasmFormatError('a section has bytes after its last entry');
  return vectorBytes(count, elements);
}

function appendToVector(payload: Uint8Array | undefined, added: readonly Uint8Array[]): Uint8Array {
  if (!payload) return vectorBytes(added.length, added);
  const reader = new ByteReader(payload);
  const count = reader.u32();
  return vectorBytes(count + added.length, [payload.subarray(reader.offset), ...added]);
}

function exportEntry(name: string, kind: number, index: number): Uint8Array {
  return Uint8Array.from([...nameBytes(name), kind, ...u32Bytes(index)]);
}

function refuseRunnerNames(payload: Uint8Array | undefined): void {
  if (!payload) return;
  const reader = new ByteReader(payload);
  const count = reader.u32();
  const reserved = new Set<string>(Object.values(RUNNER_EXPORTS));
  for (let i = 0; i < count; i++) {
    const name = reader.name();
    reader.u8();
    reader.u32();
    if (reserved.has(name)) throw new WasmFormatError(`the module exports '${name}', a name the runner reserves for itself`);
  }
}

export type { ImportedMemory } from './module-imports.js';
