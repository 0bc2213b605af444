import type { ByteReader } from './byte-reader.js';
import { WasmFormatError } from './wasm-format-error.js';

/**
 * Just enough of the instruction set to step over each instruction: its opcode and the immediates that
 * follow it. Covers the core instructions of WebAssembly 2.0 (sign extension, saturating conversions,
 * bulk memory, reference types, fixed-width SIMD), tail calls, typed function references, exception
 * handling and threads. GC instructions (`0xfb`) and opcodes not listed are refused: a metered module must be
 * read whole, since one misread immediate would desynchronise every instruction after it.
 */
export const Opcode = { loop: 0x03, memoryGrow: 0x40 } as const;

/** Heap types of `ref`/`ref null` value types (typed function references). */
const REF = 0x64;
const REF_NULL = 0x63;

export function skipValueType(reader: ByteReader): void {
  const byte = reader.u8();
  if (byte === REF || byte === REF_NULL) reader.skipLeb();
}

/** `0x40` (empty), a value type, or a type index as a signed LEB128. */
export function skipBlockType(reader: ByteReader): void {
  const byte = reader.u8();
  if (byte === REF || byte === REF_NULL || (byte & 0x80) !== 0) reader.skipLeb();
}

/** Alignment (bit 6: a memory index follows, multi-memory), then the offset. */
function skipMemoryArgument(reader: ByteReader): void {
  const align = reader.u32();
  if ((align & 0x40) !== 0) reader.u32();
  reader.skipLeb();
}

/** Steps over the immediates of the instruction whose opcode was just read. */
export function skipImmediates(reader: ByteReader, opcode: number): void {
  if (opcode >= 0x45 && opcode <= 0xc4) return; // numeric instructions, sign extension
  if (opcode >= 0x28 && opcode <= 0x3e) return skipMemoryArgument(reader);
  if (opcode >= 0x20 && opcode <= 0x26) return void reader.u32(); // locals, globals, table.get/set
  switch (opcode) {
    case 0x00: // unreachable
    case 0x01: // nop
    case 0x05: // else
    case 0x0a: // throw_ref
    case 0x0b: // end
    case 0x0f: // return
    case 0x19: // catch_all
    case 0x1a: // drop
    case 0x1b: // select
    case 0xd1: // ref.is_null
    case 0xd3: // ref.eq
    case 0xd4: // ref.as_non_null
      return;
    case 0x02: // block
    case 0x03: // loop
    case 0x04: // if
    case 0x06: // try
      return skipBlockType(reader);
    case 0x07: // catch
    case 0x08: // throw
    case 0x09: // rethrow
    case 0x0c: // br
    case 0x0d: // br_if
    case 0x10: // call
    case 0x12: // return_call
    case 0x14: // call_ref
    case 0x15: // return_call_ref
    case 0x18: // delegate
    case 0x3f: // memory.size
    case 0x40: // memory.grow
    case 0xd2: // ref.func
    case 0xd5: // br_on_null
    case 0xd6: // br_on_non_null
      return void reader.u32();
    case 0x11: // call_indirect
    case 0x13: // return_call_indirect
      reader.u32();
      return void reader.u32();
    case 0x0e: {
      // br_table: the labels, then the default
      const count = reader.u32();
      for (let i = 0; i <= count; i++) reader.u32();
      return;
    }
    case 0x1c: {
      // select with types
      const count = reader.u32();
      for (let i = 0; i < count; i++) skipValueType(reader);
      return;
    }
    case 0x1f:
      return skipTryTable(reader);
    case 0x41: // i32.const
    case 0x42: // i64.const
    case 0xd0: // ref.null (a heap type)
      return reader.skipLeb();
    case 0x43: // f32.const
      return reader.skip(4);
    case 0x44: // f64.const
      return reader.skip(8);
    case 0xfc:
      return skipMiscellaneous(reader);
    case 0xfd:
      return skipVector(reader);
    case 0xfe:
      return skipAtomic(reader);
    default:
      throw new WasmFormatError(`the module uses instruction 0x${opcode.toString(16)}, which this runner cannot meter`);
  }
}

function skipTryTable(reader: ByteReader): void {
  skipBlockType(reader);
  const count = reader.u32();
  for (let i = 0; i < count; i++) {
    const kind = reader.u8();
    if (kind === 0x00 || kind === 0x01) reader.u32(); // catch, catch_ref: a tag
    reader.u32(); // the label
  }
}

/** `0xfc`: saturating conversions, bulk memory and table instructions. */
function skipMiscellaneous(reader: ByteReader): void {
  const sub = reader.u32();
  if (sub <= 7) return; // trunc_sat
  const indices: Record<number, number> = { 8: 2, 9: 1, 10: 2, 11: 1, 12: 2, 13: 1, 14: 2, 15: 1, 16: 1, 17: 1 };
  const count = indices[sub];
  if (count === undefined) throw new WasmFormatError(`the module uses instruction 0xfc ${sub}, which this runner cannot meter`);
  for (let i = 0; i < count; i++) reader.u32();
}

/** `0xfd`: fixed-width and relaxed SIMD. */
function skipVector(reader: ByteReader): void {
  const sub = reader.u32();
  if (sub <= 11 || sub === 92 || sub === 93) return skipMemoryArgument(reader); // loads and stores
  if (sub === 12 || sub === 13) return reader.skip(16); // v128.const, i8x16.shuffle
  if (sub >= 21 && sub <= 34) return reader.skip(1); // extract_lane, replace_lane
  if (sub >= 84 && sub <= 91) {
    skipMemoryArgument(reader); // load_lane, store_lane
    return reader.skip(1);
  }
  if (sub > 0x113) throw new WasmFormatError(`the module uses instruction 0xfd ${sub}, which this runner cannot meter`);
}

/** `0xfe`: atomic memory instructions (threads). */
function skipAtomic(reader: ByteReader): void {
  const sub = reader.u32();
  if (sub === 0x03) return reader.skip(1); // atomic.fence
  if (sub > 0x4e) throw new WasmFormatError(`the module uses instruction 0xfe ${sub}, which this runner cannot meter`);
  skipMemoryArgument(reader);
}
