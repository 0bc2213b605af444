import { ByteReader } from './byte-reader.js';
import { concatBytes, u32Bytes, vectorBytes } from './byte-writer.js';
import { Opcode, skipImmediates, skipValueType } from './instructions.js';
import { WasmFormatError } from './wasm-format-error.js';

/** The globals the metering code uses: the fuel left (a mutable i64) and the last `memory.grow` result (a mutable i32). */
export interface MeterGlobals {
  fuel: number;
  grow: number;
}

/**
 * Meters every function of a code section: each function entry and each loop iteration (the header of
 * every `loop`, where each branch back lands) takes one unit of fuel, and traps once the fuel is spent,
 * leaving it at -1 — a value nothing else sets, so the runner can tell this trap from the module's own.
 * Those two points bound the work between charges: straight-line code and forward branches only.
 * Each `memory.grow` also records its result, so a trap after a refused grow reads as the memory cap.
 */
export function meterCode(payload: Uint8Array, globals: MeterGlobals): Uint8Array {
  const charge = chargeBytes(globals.fuel);
  const recordGrow = Uint8Array.from([0x24, ...u32Bytes(globals.grow), 0x23, ...u32Bytes(globals.grow)]);
  const reader = new ByteReader(payload);
  const count = reader.u32();
  const bodies: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const size = reader.u32();
    const end = reader.offset + size;
    if (end > payload.length) throw new WasmFormatError('a function body runs past the code section');
    const body = meterBody(new ByteReader(payload, reader.offset, end), charge, recordGrow);
    bodies.push(Uint8Array.from(u32Bytes(body.length)), body);
    reader.offset = end;
  }
  if (!reader.done) throw new WasmFormatError('the code section has bytes after its last function');
  return vectorBytes(count, bodies);
}

/** `fuel -= 1; if (fuel < 0) unreachable;` */
function chargeBytes(fuel: number): Uint8Array {
  const index = u32Bytes(fuel);
  // prettier-ignore
  return Uint8Array.from([
    0x23, ...index, 0x42, 0x01, 0x7d, 0x24, ...index, // global.get, i64.const 1, i64.sub, global.set
    0x23, ...index, 0x42, 0x00, 0x53, // global.get, i64.const 0, i64.lt_s
    0x04, 0x40, 0x00, 0x0b, // if, unreachable, end
  ]);
}

function meterBody(reader: ByteReader, charge: Uint8Array, recordGrow: Uint8Array): Uint8Array {
  const start = reader.offset;
  const groups = reader.u32();
  for (let i = 0; i < groups; i++) {
    reader.u32();
    skipValueType(reader);
  }
  const parts: Uint8Array[] = [reader.bytes.subarray(start, reader.offset), charge];
  let copied = reader.offset;
  while (!reader.done) {
    const opcode = reader.u8();
    skipImmediates(reader, opcode);
    const inserted = opcode === Opcode.loop ? charge : opcode === Opcode.memoryGrow ? recordGrow : undefined;
    if (inserted) {
      parts.push(reader.bytes.subarray(copied, reader.offset), inserted);
      copied = reader.offset;
    }
  }
  parts.push(reader.bytes.subarray(copied, reader.end));
  return concatBytes(parts);
}
