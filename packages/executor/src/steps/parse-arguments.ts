import type { ToolError } from '../tool-error.js';
import { FORBIDDEN_KEYS, scanJson } from './json-scanner.js';

export interface ParseLimits {
  /** Largest argument string accepted, in UTF-16 code units (default 1 MiB). */
  maxLength: number;
  /** Deepest nesting of objects and arrays accepted (default 64). */
  maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxLength: 1 << 20, maxDepth: 64 };

export type ParseResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: Extract<ToolError, { code: 'invalid_json' | 'invalid_arguments' }> };

/**
 * Parses the argument string a model produced, refusing what `JSON.parse` would silently accept:
 * duplicate keys (the last would win), `__proto__` keys and `constructor.prototype` chains
 * (prototype pollution), nesting deeper than `maxDepth`, oversized input, and numbers JavaScript cannot
 * hold as written (`1e400` becomes Infinity; an integer literal beyond ±(2^53 − 1) loses digits). The top
 * level must be an object. A syntax refusal (`invalid_json`) carries the line, column and offset so the
 * model can fix that spot; a refused number (`invalid_arguments`) carries its JSON path.
 *
 * Well-formed input takes the fast road: native `JSON.parse`, one allocation-free pass over the text
 * (its depth, and its members counted by the colons outside strings) and one over the value (its own
 * keys counted, forbidden ones and numbers beyond ±(2^53 − 1) looked for) — equal counts mean no key was
 * lost to a duplicate. Anything else is handed to a strict scanner that finds the first problem and its
 * position; a large number that is fine as written (`1e300` for a float) comes back from it unrefused.
 */
export function parseArguments(text: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
  if (typeof text !== 'string') {
    return { ok: false, error: { code: 'invalid_json', message: `the arguments must be JSON text, not ${text === null ? 'null' : typeof text}`, line: 1, column: 1, position: 0 } };
  }
  if (text.length > limits.maxLength) {
    return fail(text, limits.maxLength, `arguments are ${text.length} characters long; the limit is ${limits.maxLength}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return explain(text, limits);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return explain(text, limits);
  const shape = measureText(text);
  if (shape.depth > limits.maxDepth) return explain(text, limits);
  const members = countKeys(value, false);
  if (members === LARGE_NUMBER) return explain(text, limits, value as Record<string, unknown>);
  if (members !== shape.members) return explain(text, limits);
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The slow road: the scanner names the problem and where it is. `parsed` is the fast road's value when
 * only a large number sent the text here: the scanner judges it as written, and finding nothing else, the
 * value stands.
 */
function explain(text: string, limits: ParseLimits, parsed?: Record<string, unknown>): ParseResult {
  const problem = scanJson(text, limits.maxDepth);
  if (problem?.path !== undefined) return { ok: false, error: { code: 'invalid_arguments', issues: [{ path: problem.path, message: problem.message }] } };
  if (problem) return fail(text, problem.position, problem.message);
  if (parsed) return { ok: true, value: parsed };
  // Unreachable while the scanner is at least as strict as the fast road; refuse rather than guess.
  return fail(text, 0, 'the arguments could not be read as one JSON object');
}

/** Nesting depth and the number of object members (colons outside strings) of valid JSON text. */
function measureText(text: string): { depth: number; members: number } {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) members++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: deepest, members };
}

const FORBIDDEN = -1;
/** A number beyond ±(2^53 − 1) (or infinite) was seen: the scanner must read how it was written. */
const LARGE_NUMBER = -2;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Own keys of every object in a parsed value; FORBIDDEN as soon as a forbidden key or key path is seen
 * (a `__proto__` key, or `prototype` under `constructor`), LARGE_NUMBER as soon as a number beyond
 * ±(2^53 − 1) is: either way the caller falls back to the scanner.
 */
function countKeys(value: unknown, underConstructor: boolean): number {
  if (typeof value !== 'object' || value === null) return typeof value === 'number' && (value > MAX_SAFE || value < -MAX_SAFE) ? LARGE_NUMBER : 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countKeys(item, false);
      if (inner < 0) return inner;
      count += inner;
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key) || (underConstructor && key === 'prototype')) return FORBIDDEN;
    const inner = countKeys((value as Record<string, unknown>)[key], key === 'constructor');
    if (inner < 0) return inner;
    count += inner + 1;
  }
  return count;
}

function fail(text: string, position: number, message: string): ParseResult {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(position, text.length);
  for (let k = 0; k < end; k++) {
    if (text.charCodeAt(k) === 0x0a) {
      line++;
      lineStart = k + 1;
    }
  }
  return { ok: false, error: { code: 'invalid_json', message, line, column: end - lineStart + 1, position } };
}
