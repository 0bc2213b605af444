export interface Truncation {
  text: string;
  truncated: boolean;
  originalBytes: number;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024;

/**
 * Caps model-facing output at `maxBytes` of UTF-8, keeping the head and the tail (errors and
 * summaries often sit at the end) and appending `[output truncated — original size: N bytes]`.
 * Cuts never split a UTF-8 sequence.
 */
export function truncateOutput(text: string, maxBytes: number = DEFAULT_MAX_OUTPUT_BYTES): Truncation {
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= maxBytes) return { text, truncated: false, originalBytes: size };
  const bytes = Buffer.from(text, 'utf8');
  const marker = `\n[output truncated — original size: ${bytes.length.toLocaleString('en-US')} bytes]`;
  const gap = '\n…\n';
  const budget = maxBytes - Buffer.byteLength(marker) - Buffer.byteLength(gap);
  if (budget <= 0) return { text: marker.trimStart(), truncated: true, originalBytes: bytes.length };
  const headBytes = Math.floor(budget * 0.6);
  const tailBytes = budget - headBytes;
  const head = bytes.subarray(0, boundaryAtOrBefore(bytes, headBytes));
  const tail = bytes.subarray(boundaryAtOrAfter(bytes, bytes.length - tailBytes));
  return { text: `${head.toString('utf8')}${gap}${tail.toString('utf8')}${marker}`, truncated: true, originalBytes: bytes.length };
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

function boundaryAtOrBefore(bytes: Buffer, index: number): number {
  let i = index;
  while (i > 0 && isContinuation(bytes[i])) i--;
  return i;
}

function boundaryAtOrAfter(bytes: Buffer, index: number): number {
  let i = index;
  while (i < bytes.length && isContinuation(bytes[i])) i++;
  return i;
}
