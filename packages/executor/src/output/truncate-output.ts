import { describeOmission } from '../model-message.js';
import type { Omission } from '../omission.js';

export interface Truncation {
  text: string;
  truncated: boolean;
  /** UTF-8 size of the full text. */
  originalBytes: number;
  omitted?: Omission;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 16 * 1024;
/** @deprecated the same limit under its former name; use `DEFAULT_MAX_OUTPUT_CHARS`. */
export const DEFAULT_MAX_OUTPUT_BYTES = DEFAULT_MAX_OUTPUT_CHARS;

/**
 * Caps model-facing text at `maxChars` UTF-16 code units, keeping the head and the tail (errors and
 * summaries often sit at the end), cut on line boundaries when one is near, with a note in the gap that
 * says exactly which characters and lines were left out, and how to get them (`keptAs`: the call id
 * under which the host keeps the full text). Cuts never split a surrogate pair.
 * @example truncateOutput(threeThousandLines, 16384, 'call_1').text
 *   // "   1\t…\n[… lines 181–2,822 of 3,000 omitted (characters 9,421–…) …]\n…"
 */
export function truncateOutput(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS, keptAs?: string): Truncation {
  if (text.length <= maxChars) return { text, truncated: false, originalBytes: Buffer.byteLength(text, 'utf8') };
  const totalLines = lineOf(text, text.length - (text.endsWith('\n') ? 1 : 0));
  // The note's length with the largest numbers it can hold bounds the note actually written.
  const widest = describeOmission({
    fromChar: text.length,
    toChar: text.length,
    totalChars: text.length,
    fromLine: totalLines,
    toLine: totalLines,
    totalLines,
    wholeLines: false,
    ...(keptAs !== undefined ? { keptAs } : {}),
  });
  const budget = maxChars - widest.length - 2;
  const cut = budget > 0 ? cutPoints(text, budget) : { headEnd: 0, tailStart: text.length };
  const omitted: Omission = {
    fromChar: cut.headEnd + 1,
    toChar: cut.tailStart,
    totalChars: text.length,
    fromLine: lineOf(text, cut.headEnd),
    toLine: lineOf(text, Math.max(cut.headEnd, cut.tailStart - 1)),
    totalLines,
    wholeLines: (cut.headEnd === 0 || text[cut.headEnd - 1] === '\n') && (cut.tailStart === text.length || text[cut.tailStart - 1] === '\n'),
    ...(keptAs !== undefined ? { keptAs } : {}),
  };
  const head = text.slice(0, cut.headEnd);
  const note = describeOmission(omitted);
  const tail = text.slice(cut.tailStart);
  const out = `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${note}${tail === '' ? '' : `\n${tail}`}`;
  return { text: out, truncated: true, originalBytes: Buffer.byteLength(text, 'utf8'), omitted };
}

/** Where the head ends and the tail starts: 60/40 of the budget, moved to a line boundary within a quarter of each part. */
function cutPoints(text: string, budget: number): { headEnd: number; tailStart: number } {
  const headChars = Math.floor(budget * 0.6);
  const tailChars = budget - headChars;
  let headEnd = headChars;
  const lineEnd = text.lastIndexOf('\n', headChars - 1) + 1;
  if (lineEnd > 0 && headChars - lineEnd <= headChars / 4) headEnd = lineEnd;
  else if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - tailChars;
  const lineStart = text.indexOf('\n', tailStart - 1) + 1;
  if (lineStart > 0 && lineStart - tailStart <= tailChars / 4) tailStart = lineStart;
  else if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return { headEnd, tailStart: Math.max(tailStart, headEnd) };
}

/** The 1-based line number of the character at `index`. */
function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
