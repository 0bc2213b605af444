import { ByteReader } from './byte-reader.js';
import { concatBytes, vectorBytes } from './byte-writer.js';
import { skipValueType } from './instructions.js';
import { capLimits, limitsBytes, readLimits } from './limits.js';
import { MemoryCapError } from './memory-cap-error.js';
import { WasmFormatError } from './wasm-format-error.js';

/** A memory the module imports, which the runner creates with the capped limits. */
export interface ImportedMemory {
  module: string;
  name: string;
  /** In pages of 64 KiB. */
  initial: number;
  maximum: number;
  shared: boolean;
}

export interface ModuleImports {
  /** The import section with every imported memory's maximum capped. */
  payload: Uint8Array;
  /** How many globals the module imports: the first index of its own globals. */
  globals: number;
  memories: ImportedMemory[];
}

const Kind = { function: 0, table: 1, memory: 2, global: 3, tag: 4 } as const;

/** Reads the import section, capping the limits of each imported memory at `capPages`. */
export function capImports(payload: Uint8Array, capPages: number): ModuleImports {
  const reader = new ByteReader(payload);
  const count = reader.u32();
  const entries: Uint8Array[] = [];
  const memories: ImportedMemory[] = [];
  let globals = 0;
  for (let i = 0; i < count; i++) {
    const start = reader.offset;
    const module = reader.name();
    const name = reader.name();
    const kind = reader.u8();
    switch (kind) {
      case Kind.function:
        reader.u32();
        break;
      case Kind.table:
        skipValueType(reader);
        readLimits(reader);
        break;
      case Kind.memory: {
        const head = payload.subarray(start, reader.offset);
        const declared = readLimits(reader);
        const capped = capLimits(declared, capPages);
        if (!capped) throw new MemoryCapError('memory', declared.min, capPages);
        memories.push({ module, name, initial: capped.min, maximum: capped.max!, shared: capped.shared });
        entries.push(concatBytes([head, Uint8Array.from(limitsBytes(capped))]));
        continue;
      }
      case Kind.global:
        skipValueType(reader);
        reader.u8();
        globals++;
        break;
      case Kind.tag:
        reader.u8();
        reader.u32();
        break;
      default:
        throw new WasmFormatError(`the module has an import of unknown kind ${kind}`);
    }
    entries.push(payload.subarray(start, reader.offset));
  }
  if (!reader.done) throw new WasmFormatError('the import section has bytes after its last import');
  return { payload: vectorBytes(count, entries), globals, memories };
}
