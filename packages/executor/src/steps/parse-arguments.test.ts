import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseArguments } from './parse-arguments.js';

describe(parseArguments, () => {
  it.for([
    ['{}', {}],
    ['{"path":"a.txt","limit":10}', { path: 'a.txt', limit: 10 }],
    [' \n{ "a" : [1, 2.5e3, -0.5, true, false, null, {"b": "\\u00e9\\n"}] }\n', { a: [1, 2500, -0.5, true, false, null, { b: 'é\n' }] }],
  ] as const)('accepts %s', ([text, expected]) => {
    expect(parseArguments(text)).toEqual({ ok: true, value: expected });
  });

  it.for([
    ['', 'the arguments are empty', 1, 1],
    ['{"path": "a.txt"', "expected ',' or '}' after a property value, found the end of the input", 1, 17],
    ['{"a": 1, "a": 2}', 'duplicate key "a"', 1, 10],
    ['{"__proto__": {"x": 1}}', 'the key "__proto__" is not allowed', 1, 2],
    ['{"constructor": {"prototype": {"x": 1}}}', 'the key path "constructor.prototype" is not allowed', 1, 18],
    ["{'path': 'a'}", 'expected a property name in double quotes', 1, 2],
    ['{"a": 1,}', 'trailing comma before }', 1, 9],
    ['[1, 2]', 'the arguments must be a JSON object', 1, 1],
    ['"text"', 'the arguments must be a JSON object', 1, 1],
    ['{"a": 1} {"b": 2}', "unexpected '{' after the end of the object", 1, 10],
    ['{\n  "a": tru\n}', "unexpected 't'", 2, 8],
    ['{"a": "line\nbreak"}', 'unescaped control character in a string', 1, 12],
    ['{"a": "\\x"}', 'invalid escape sequence', 1, 8],
    ['{"a": 01}', "expected ',' or '}' after a property value, found '1'", 1, 8],
    ['{"a": NaN}', "unexpected 'N'", 1, 7],
    ['{"x": {"k": 1, "k": 2}}', 'duplicate key "k"', 1, 16],
    ['{"x": [{"k": ":", "k": "}"}]}', 'duplicate key "k"', 1, 19],
    ['{"a": [{"b": {"__proto__": 1}}]}', 'the key "__proto__" is not allowed', 1, 15],
    ['{"x": {"constructor": {"prototype": 1}}}', 'the key path "constructor.prototype" is not allowed', 1, 24],
  ] as const)('refuses %j with a position', ([text, message, line, column]) => {
    const result = parseArguments(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain(message);
    expect([result.error.line, result.error.column]).toEqual([line, column]);
  });

  it('refuses nesting deeper than the limit', () => {
    const deep = `{"a":${'['.repeat(64)}${']'.repeat(64)}}`;
    const result = parseArguments(deep);
    expect(result).toMatchObject({ ok: false, error: { message: 'nesting deeper than 64 levels' } });
    expect(parseArguments(`{"a":${'['.repeat(62)}${']'.repeat(62)}}`).ok).toBe(true);
  });

  it('refuses oversized input before scanning it', () => {
    const result = parseArguments(`{"a":"${'x'.repeat(2000)}"}`, { maxLength: 1000, maxDepth: 64 });
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringContaining('the limit is 1000') } });
  });

  it('never throws and agrees with JSON.parse on every object it accepts (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ unit: 'binary' })), (text) => {
      const result = parseArguments(text);
      if (result.ok) expect(result.value).toEqual(JSON.parse(text));
      else expect(result.error.line).toBeGreaterThanOrEqual(1);
    }), { numRuns: 20_000 });
  });
});
