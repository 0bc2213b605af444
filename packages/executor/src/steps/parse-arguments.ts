import type { ToolError } from '../tool-error.js';

export interface ParseLimits {
  /** Largest argument string accepted, in UTF-16 code units (default 1 MiB). */
  maxLength: number;
  /** Deepest nesting of objects and arrays accepted (default 64). */
  maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxLength: 1 << 20, maxDepth: 64 };

export type ParseResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: Extract<ToolError, { code: 'invalid_json' }> };

const FORBIDDEN_KEYS = new Set(['__proto__']);

/**
 * Parses the argument string a model produced, refusing what `JSON.parse` would silently accept:
 * duplicate keys (the last would win), `__proto__` keys and `constructor.prototype` chains
 * (prototype pollution), nesting deeper than `maxDepth`, and oversized input. The top level must be an
 * object. Every refusal carries the line, column and offset so the model can fix that spot.
 *
 * Well-formed input takes the fast road: native `JSON.parse`, one allocation-free pass over the text
 * (its depth, and its members counted by the colons outside strings) and one over the value (its own
 * keys counted, forbidden ones looked for) — equal counts mean no key was lost to a duplicate. Anything
 * else is handed to a strict scanner that finds the first problem and its position.
 */
export function parseArguments(text: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
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
  if (shape.depth > limits.maxDepth || countKeys(value, false) !== shape.members) return explain(text, limits);
  return { ok: true, value: value as Record<string, unknown> };
}

/** The slow road: the scanner names the problem and where it is. */
function explain(text: string, limits: ParseLimits): ParseResult {
  const problem = scan(text, limits.maxDepth);
  if (problem) return fail(text, problem.position, problem.message);
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

/**
 * Own keys of every object in a parsed value; -1 as soon as a forbidden key or key path is seen
 * (a `__proto__` key, or `prototype` under `constructor`), so the caller falls back to the scanner.
 */
function countKeys(value: unknown, underConstructor: boolean): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countKeys(item, false);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key) || (underConstructor && key === 'prototype')) return -1;
    const inner = countKeys((value as Record<string, unknown>)[key], key === 'constructor');
    if (inner < 0) return -1;
    count += inner + 1;
  }
  return count;
}

interface Problem {
  position: number;
  message: string;
}

/** A strict RFC 8259 scanner that checks structure only; it never builds values. */
function scan(text: string, maxDepth: number): Problem | undefined {
  let i = 0;
  const n = text.length;
  const keyStack: Set<string>[] = [];
  const pathStack: string[] = [];

  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const describe = (): string => (i >= n ? 'the end of the input' : `'${text[i]}'`);

  const readString = (): string | Problem => {
    const start = i;
    i++; // opening quote
    let simple = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return simple ? text.slice(start + 1, i - 1) : (JSON.parse(text.slice(start, i)) as string);
      }
      if (c === 0x5c) {
        simple = false;
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { position: i, message: 'invalid \\u escape in a string' };
          i += 6;
        } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else {
          return { position: i, message: 'invalid escape sequence in a string' };
        }
        continue;
      }
      if (c < 0x20) return { position: i, message: 'unescaped control character in a string (escape newlines as \\n)' };
      i++;
    }
    return { position: start, message: 'unterminated string' };
  };

  const digits = (): number => {
    const start = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - start;
  };
  const readNumber = (): Problem | undefined => {
    const start = i;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (digits() === 0) return { position: start, message: `unexpected ${i > start ? `'${text[i] ?? ''}' after '-'` : describe()}` };
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (digits() === 0) return { position: i, message: 'a decimal point must be followed by digits' };
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (digits() === 0) return { position: i, message: 'an exponent must have digits' };
    }
    return undefined;
  };

  const readValue = (depth: number): Problem | undefined => {
    ws();
    if (i >= n) return { position: i, message: 'unexpected end of input: the JSON is incomplete' };
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (depth >= maxDepth) return { position: i, message: `nesting deeper than ${maxDepth} levels` };
      return c === 0x7b ? readObject(depth + 1) : readArray(depth + 1);
    }
    if (c === 0x22) {
      const s = readString();
      return typeof s === 'string' ? undefined : s;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return readNumber();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return undefined;
      }
    }
    return { position: i, message: `unexpected ${describe()}${c === 0x27 ? ' (JSON strings use double quotes)' : ''}` };
  };

  const readObject = (depth: number): Problem | undefined => {
    i++; // {
    const keys = new Set<string>();
    keyStack.push(keys);
    ws();
    if (text.charCodeAt(i) === 0x7d) {
      i++;
      keyStack.pop();
      return undefined;
    }
    for (;;) {
      ws();
      if (text.charCodeAt(i) !== 0x22) return { position: i, message: `expected a property name in double quotes, found ${describe()}` };
      const keyStart = i;
      const key = readString();
      if (typeof key !== 'string') return key;
      if (keys.has(key)) return { position: keyStart, message: `duplicate key "${key}"` };
      if (FORBIDDEN_KEYS.has(key)) return { position: keyStart, message: `the key "${key}" is not allowed` };
      if (key === 'prototype' && pathStack[pathStack.length - 1] === 'constructor') {
        return { position: keyStart, message: 'the key path "constructor.prototype" is not allowed' };
      }
      keys.add(key);
      ws();
      if (text.charCodeAt(i) !== 0x3a) return { position: i, message: `expected ':' after "${key}", found ${describe()}` };
      i++;
      pathStack.push(key);
      const problem = readValue(depth);
      pathStack.pop();
      if (problem) return problem;
      ws();
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        ws();
        if (text.charCodeAt(i) === 0x7d) return { position: i, message: 'trailing comma before }' };
        continue;
      }
      if (d === 0x7d) {
        i++;
        keyStack.pop();
        return undefined;
      }
      return { position: i, message: `expected ',' or '}' after a property value, found ${describe()}` };
    }
  };

  const readArray = (depth: number): Problem | undefined => {
    i++; // [
    ws();
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return undefined;
    }
    pathStack.push('[]');
    for (;;) {
      const problem = readValue(depth);
      if (problem) return problem;
      ws();
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        ws();
        if (text.charCodeAt(i) === 0x5d) return { position: i, message: 'trailing comma before ]' };
        continue;
      }
      if (d === 0x5d) {
        i++;
        pathStack.pop();
        return undefined;
      }
      return { position: i, message: `expected ',' or ']' after an array element, found ${describe()}` };
    }
  };

  ws();
  if (i >= n) return { position: 0, message: 'the arguments are empty; send a JSON object such as {}' };
  if (text.charCodeAt(i) !== 0x7b) {
    const problem = readValue(0);
    return problem ?? { position: 0, message: 'the arguments must be a JSON object ({...}), not a bare value' };
  }
  const problem = readObject(1);
  if (problem) return problem;
  ws();
  if (i < n) return { position: i, message: `unexpected ${describe()} after the end of the object` };
  return undefined;
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
