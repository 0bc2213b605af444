import { getToolContext } from '@toolwright/tool';

/** The budget outside an executor: the executor's default truncation limit. */
export const DEFAULT_OUTPUT_CHARS = 16 * 1024;

/**
 * How much model-facing text this call may return: the executor's `outputBudget`, or
 * `DEFAULT_OUTPUT_CHARS` when the tool runs outside one.
 */
export function outputBudget(): number {
  const maxChars = getToolContext()?.outputBudget?.maxChars;
  return maxChars !== undefined && maxChars > 0 ? Math.floor(maxChars) : DEFAULT_OUTPUT_CHARS;
}

/** The characters the executor writes as a visible `\uXXXX` escape (terminal and bidi controls). */
const ESCAPED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The size of text as the model reads it, counted so that it fits the budget however the executor
 * counts: UTF-8 bytes (never fewer than UTF-16 characters), and 6 more for each control character
 * the executor escapes as `\uXXXX`.
 */
export function modelSize(text: string): number {
  const bytes = Buffer.byteLength(text, 'utf8');
  ESCAPED.lastIndex = 0;
  if (!ESCAPED.test(text)) return bytes;
  return bytes + 6 * (text.match(ESCAPED)?.length ?? 0);
}

/** How many of the leading `lines`, joined by newlines, fit in `room`. */
export function linesWithin(lines: readonly string[], room: number): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += modelSize(lines[i]!) + (i > 0 ? 1 : 0);
    if (used > room) return i;
  }
  return lines.length;
}

/**
 * The longest start of `text` that fits in `room`, ending after a newline when one lies in its second
 * half (so the cut falls between lines), never inside a surrogate pair.
 */
export function headWithin(text: string, room: number): string {
  if (modelSize(text) <= room) return text;
  const length = longestFitting(text.length, (n) => modelSize(text.slice(0, n)) <= room);
  let end = length;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const newline = text.lastIndexOf('\n', end - 1);
  return text.slice(0, newline >= end / 2 ? newline + 1 : end);
}

/** The longest end of `text` that fits in `room`, starting after a newline when one lies in its first half. */
export function tailWithin(text: string, room: number): string {
  if (modelSize(text) <= room) return text;
  const length = longestFitting(text.length, (n) => modelSize(text.slice(text.length - n)) <= room);
  let start = text.length - length;
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  const newline = text.indexOf('\n', start);
  return text.slice(newline !== -1 && newline - start < (text.length - start) / 2 ? newline + 1 : start);
}

/** The largest `n` in 0..max for which `fits(n)` holds (`fits` is monotone). */
function longestFitting(max: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * `1234567` as `1,234,567`, as `toLocaleString('en-US')` writes it; a whole number without loading ICU's locale
 * data (~25 ms of every start: the tools' descriptions count their limits).
 */
export function count(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return `${n < 0 ? '-' : ''}${String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}
