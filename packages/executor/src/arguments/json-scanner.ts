import type { ArgumentIssue } from '../tool-error.js';
import { formatJsonPath } from './json-path.js';

/** Keys refused anywhere in the arguments (prototype pollution); `constructor.prototype` is refused as a path. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__']);

/** The first problem in a text: where it is and, for a value that is well-formed JSON but not acceptable, its JSON path. */
export interface ScanProblem {
  position: number;
  message: string;
  /** Set for a value refused by what it holds (a number), not by its syntax. */
  issue?: ArgumentIssue;
}

/**
 * A strict RFC 8259 scanner that checks structure only; it never builds values (numbers are read only
 * to refuse those that do not survive as a JavaScript number: non-finite, or an integer literal beyond
 * ±(2^53 − 1) that would silently lose precision).
 */
export function scanJson(text: string, maxDepth: number): ScanProblem | undefined {
  let i = 0;
  const n = text.length;
  const keyStack: Set<string>[] = [];
  // Keys and array indexes from the root to the current value.
  const pathStack: (string | number)[] = [];

  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const describe = (): string => (i >= n ? 'the end of the input' : `'${text[i]}'`);

  const readString = (): string | ScanProblem => {
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
  const readNumber = (): ScanProblem | undefined => {
    const start = i;
    let integer = true;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (digits() === 0) return { position: start, message: `unexpected ${i > start ? `'${text[i] ?? ''}' after '-'` : describe()}` };
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      integer = false;
      if (digits() === 0) return { position: i, message: 'a decimal point must be followed by digits' };
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      integer = false;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (digits() === 0) return { position: i, message: 'an exponent must have digits' };
    }
    return checkNumber(text.slice(start, i), integer, start, pathStack);
  };

  const readValue = (depth: number): ScanProblem | undefined => {
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

  const readObject = (depth: number): ScanProblem | undefined => {
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

  const readArray = (depth: number): ScanProblem | undefined => {
    i++; // [
    ws();
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return undefined;
    }
    pathStack.push(0);
    for (let index = 0; ; index++) {
      pathStack[pathStack.length - 1] = index;
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
    return problem && problem.issue === undefined ? problem : { position: 0, message: 'the arguments must be a JSON object ({...}), not a bare value' };
  }
  const problem = readObject(1);
  if (problem) return problem;
  ws();
  if (i < n) return { position: i, message: `unexpected ${describe()} after the end of the object` };
  return undefined;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A number literal a model wrote, refused when JavaScript cannot hold it as written. */
function checkNumber(literal: string, integer: boolean, position: number, keys: readonly (string | number)[]): ScanProblem | undefined {
  const value = Number(literal);
  // Every literal above 2^53 - 1 parses above it (rounding is monotone and 2^53 - 1 is exact).
  const unsafe = integer && (value > MAX_SAFE || value < -MAX_SAFE);
  if (Number.isFinite(value) && !unsafe) return undefined;
  const path = formatJsonPath(keys);
  const received = literal.length > 40 ? `${literal.slice(0, 24)}…(${literal.length} digits)` : literal;
  const issue: ArgumentIssue = unsafe ? { path, kind: 'unsafe_integer', received } : { path, kind: 'not_finite', received };
  return { position, message: unsafe ? 'an integer beyond ±(2^53 − 1)' : 'a number too large to be finite', issue };
}
