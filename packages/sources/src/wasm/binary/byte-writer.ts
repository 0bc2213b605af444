/** An unsigned LEB128 encoding of a non-negative integer below 2^53. */
export function u32Bytes(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const byte = rest % 128;
    rest = Math.floor(rest / 128);
    out.push(rest === 0 ? byte : byte | 0x80);
  } while (rest !== 0);
  return out;
}

/** A signed LEB128 encoding of a 64-bit integer. */
export function s64Bytes(value: bigint): number[] {
  const out: number[] = [];
  let rest = BigInt.asIntN(64, value);
  for (;;) {
    const byte = Number(rest & 0x7fn);
    rest >>= 7n;
    const done = (rest === 0n && (byte & 0x40) === 0) || (rest === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** A name as the binary format spells it: its UTF-8 length, then its bytes. */
export function nameBytes(name: string): number[] {
  const utf8 = Buffer.from(name, 'utf8');
  return [...u32Bytes(utf8.length), ...utf8];
}

/** A vector: its element count, then the elements. */
export function vectorBytes(count: number, elements: readonly Uint8Array[]): Uint8Array {
  return concatBytes([Uint8Array.from(u32Bytes(count)), ...elements]);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
