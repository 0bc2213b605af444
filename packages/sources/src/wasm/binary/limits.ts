import type { ByteReader } from './byte-reader.js';
import { u32Bytes } from './byte-writer.js';
import { WasmFormatError } from './wasm-format-error.js';

/** A memory's or table's limits (in pages of 64 KiB, or in entries). */
export interface Limits {
  min: number;
  max: number | undefined;
  shared: boolean;
}

const HAS_MAX = 0x01;
const SHARED = 0x02;
const SIXTY_FOUR_BIT = 0x04;

export function readLimits(reader: ByteReader): Limits {
  const flags = reader.u8();
  if ((flags & SIXTY_FOUR_BIT) !== 0) throw new WasmFormatError('the module uses a 64-bit memory or table, which this runner does not support');
  if (flags > (HAS_MAX | SHARED)) throw new WasmFormatError(`the module has limits with unknown flags 0x${flags.toString(16)}`);
  const min = reader.u32();
  const max = (flags & HAS_MAX) !== 0 ? reader.u32() : undefined;
  return { min, max, shared: (flags & SHARED) !== 0 };
}

/** The limits with a maximum of at most `cap`; `undefined` when even the minimum is above it. */
export function capLimits(limits: Limits, cap: number): Limits | undefined {
  if (limits.min > cap) return undefined;
  return { ...limits, max: Math.min(limits.max ?? cap, cap) };
}

export function limitsBytes(limits: Limits): number[] {
  const flags = (limits.max !== undefined ? HAS_MAX : 0) | (limits.shared ? SHARED : 0);
  return [flags, ...u32Bytes(limits.min), ...(limits.max !== undefined ? u32Bytes(limits.max) : [])];
}
