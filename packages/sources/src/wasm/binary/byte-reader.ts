import { WasmFormatError } from './wasm-format-error.js';

/** Reads the WebAssembly binary format: bytes, LEB128 integers, names. Throws `WasmFormatError` past its end. */
export class ByteReader {
  offset: number;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
    readonly end = bytes.length,
  ) {
    this.offset = offset;
  }

  get done(): boolean {
    return this.offset >= this.end;
  }

  u8(): number {
    if (this.offset >= this.end) throw new WasmFormatError('the module ends in the middle of a section');
    return this.bytes[this.offset++]!;
  }

  /** An unsigned LEB128 integer of at most 32 bits. */
  u32(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8();
      // Multiplication, not `<<`: a fifth byte would overflow a 32-bit shift.
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new WasmFormatError('an integer is longer than 5 bytes');
  }

  /** Skips one LEB128 integer of any width and sign (up to 64 bits). */
  skipLeb(): void {
    for (let count = 0; count < 10; count++) if ((this.u8() & 0x80) === 0) return;
    throw new WasmFormatError('an integer is longer than 10 bytes');
  }

  skip(length: number): void {
    if (this.offset + length > this.end) throw new WasmFormatError('the module ends in the middle of a section');
    this.offset += length;
  }

  /** A view (not a copy) of the next `length` bytes. */
  take(length: number): Uint8Array {
    const start = this.offset;
    this.skip(length);
    return this.bytes.subarray(start, start + length);
  }

  name(): string {
    return Buffer.from(this.take(this.u32())).toString('utf8');
  }
}
