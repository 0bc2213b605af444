const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1_024, mb: 1_048_576, gb: 1_073_741_824 };

/**
 * Parses a duration written as `250ms`, `5s`, `1.5m` or `1h` (or a plain number of milliseconds).
 * Returns `undefined` for anything else, including zero and negative durations.
 */
export function parseDuration(value: string | number): number | undefined {
  return parseWithUnits(value, DURATION_UNITS, 'ms');
}

/** Parses a size written as `512B`, `64KB`, `256MB` or `1GB` (or a plain number of bytes). */
export function parseSize(value: string | number): number | undefined {
  return parseWithUnits(value, SIZE_UNITS, 'b');
}

function parseWithUnits(value: string | number, units: Record<string, number>, bare: string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  if (!match) return undefined;
  const factor = units[(match[2] || bare).toLowerCase()];
  const amount = Number(match[1]);
  if (factor === undefined || !(amount > 0)) return undefined;
  return Math.round(amount * factor);
}
