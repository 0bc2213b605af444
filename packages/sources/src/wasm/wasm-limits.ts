import { SourceError } from '../source-error.js';
import type { WasmToolOptions } from '../source-options.js';
import type { SourceRequest } from '../source-request.js';

export const PAGE_BYTES = 64 * 1024;
/** A 32-bit memory's largest size: 65,536 pages of 64 KiB. */
const MAX_PAGES = 65_536;
export const DEFAULT_MAX_MEMORY_BYTES = 64 * 1024 * 1024;
export const DEFAULT_FUEL = 1_000_000_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** The limits of one call, from the tool's declaration and its options. */
export interface WasmLimits {
  memoryBytes: number;
  /** The memory cap in pages of 64 KiB (rounded down). */
  capPages: number;
  fuel: number;
  maxOutputBytes: number;
  timeoutMs: number;
}

export function wasmLimits(request: SourceRequest<string, WasmToolOptions>): WasmLimits {
  const { metadata } = request.declaration;
  const memoryBytes = positive(metadata.resources.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES, 'maxMemory');
  return {
    memoryBytes,
    capPages: Math.min(Math.floor(memoryBytes / PAGE_BYTES), MAX_PAGES),
    fuel: positive(request.options.fuel ?? DEFAULT_FUEL, 'fuel'),
    maxOutputBytes: positive(request.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, 'maxOutputBytes'),
    timeoutMs: positive(metadata.timeoutMs, 'timeout'),
  };
}

function positive(value: number, option: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new SourceError('invalid_config', `the tool's ${option} must be a positive whole number, not ${value}`);
  return value;
}

/** `67108864` -> `64 MiB`, `1536` -> `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
