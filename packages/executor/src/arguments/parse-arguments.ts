import type { ArgumentIssue, ToolError } from '../tool-error.js';
import { formatJsonPath } from './json-path.js';
import { FORBIDDEN_KEYS, scanJson } from './json-scanner.js';
import { jsonType } from './json-type.js';

export interface ParseLimits {
  /** Largest argument string accepted, in UTF-16 code units (default 1 MiB). */
  maxLength: number;
  /** Deepest nesting of objects and arrays accepted (default 64). */
  maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxLength: 1 << 20, maxDepth: 64 };

export type ParseResult =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: Extract<ToolError, { code: 'invalid_json' | 'invalid_arguments' }> };

/**
 * Reads a call's arguments: text (see below), or a value a host already parsed, which gets the same
 * checks as parsed text and is copied (see `checkArgumentValue`).
 *
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
export function parseArguments(text: unknown, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
  if (typeof text !== 'string') return checkArgumentValue(text, limits);
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
  if (problem?.issue !== undefined) return { ok: false, error: { code: 'invalid_arguments', issues: [problem.issue] } };
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

/**
 * Arguments a host parsed already (MCP, the AI SDK, Anthropic's `input`), held to what parsed text is:
 * a plain object at the top; only JSON values (strings, finite numbers, booleans, null, arrays, plain
 * objects) — an `undefined` property is left out, as `JSON.stringify` would; no `__proto__` key nor
 * `constructor.prototype`; at most `maxDepth` levels; at most `maxLength` characters of keys and
 * strings (each other value counts one). Integers beyond ±(2^53 − 1) cannot be told from floats once
 * parsed: the schema's `integer` refuses them. Each property is read once into a fresh copy, so a
 * getter or proxy cannot answer differently later, and the tool never shares the host's object.
 */
export function checkArgumentValue(value: unknown, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse({ path: '$', kind: 'type', expected: ['object'], received: jsonType(value) });
  }
  const walk: ValueWalk = { limits, keys: [], ancestors: [], size: 0 };
  try {
    return { ok: true, value: copyValue(value, walk, 1) as Record<string, unknown> };
  } catch (error) {
    if (error instanceof StopWalk) return refuse(error.issue);
    return refuse({ path: formatJsonPath(walk.keys), kind: 'not_json', received: 'a value that cannot be read (reading it threw)' });
  }
}

interface ValueWalk {
  limits: ParseLimits;
  keys: (string | number)[];
  ancestors: object[];
  size: number;
}

/** Ends the walk at its first issue: thrown from any depth of the copy, caught by `checkArgumentValue`. */
class StopWalk extends Error {
  constructor(readonly issue: ArgumentIssue) {
    super(`the argument value was refused at ${issue.path}`);
    this.name = 'StopWalk';
  }
}

function stop(issue: ArgumentIssue): never {
  throw new StopWalk(issue);
}

function copyValue(value: unknown, walk: ValueWalk, depth: number): unknown {
  if (++walk.size > walk.limits.maxLength) stop({ path: '$', kind: 'too_large', limit: walk.limits.maxLength });
  switch (typeof value) {
    case 'string':
      if ((walk.size += value.length) > walk.limits.maxLength) stop({ path: '$', kind: 'too_large', limit: walk.limits.maxLength });
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) stop({ path: formatJsonPath(walk.keys), kind: 'not_finite', received: String(value) });
      return value;
    case 'object':
      if (value === null) return null;
      break;
    default:
      stop({ path: formatJsonPath(walk.keys), kind: 'not_json', received: describeValue(value) });
  }
  const path = () => formatJsonPath(walk.keys);
  if (walk.ancestors.includes(value)) stop({ path: path(), kind: 'not_json', received: 'a cycle (it contains itself)' });
  if (depth > walk.limits.maxDepth) stop({ path: path(), kind: 'too_deep', maxDepth: walk.limits.maxDepth });
  walk.ancestors.push(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      walk.keys.push(i);
      items.push(copyValue(value[i], walk, depth + 1));
      walk.keys.pop();
    }
    copy = items;
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) stop({ path: path(), kind: 'not_json', received: describeValue(value) });
    const out: Record<string, unknown> = {};
    const underConstructor = walk.keys[walk.keys.length - 1] === 'constructor';
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key) || (underConstructor && key === 'prototype')) stop({ path: path(), kind: 'forbidden_key', key });
      walk.keys.push(key);
      const child: unknown = (value as Record<string, unknown>)[key];
      if (child !== undefined) {
        walk.size += key.length;
        out[key] = copyValue(child, walk, depth + 1);
      }
      walk.keys.pop();
    }
    copy = out;
  }
  walk.ancestors.pop();
  return copy;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object that is not plain data';
    }
  }
  const type = jsonType(value);
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function refuse(issue: ArgumentIssue): ParseResult {
  return { ok: false, error: { code: 'invalid_arguments', issues: [issue] } };
}
