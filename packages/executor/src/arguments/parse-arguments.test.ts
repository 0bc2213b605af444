import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeIssue } from '../model-message.js';
import { checkArgumentValue, parseArguments } from './parse-arguments.js';

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
    expect(result.error.code).toBe('invalid_json');
    if (result.error.code !== 'invalid_json') return;
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
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string({ unit: 'binary' }),
        ),
        (text) => {
          const result = parseArguments(text);
          if (result.ok) expect(result.value).toEqual(JSON.parse(text));
          else if (result.error.code === 'invalid_json') expect(result.error.line).toBeGreaterThanOrEqual(1);
          else expect(result.error.issues[0]!.path).toMatch(/^\$/);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it.for([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'integer'],
    [[1], 'array'],
    ['x', undefined],
  ] as const)('refuses %j where an object of arguments belongs', ([value, received]) => {
    if (received === undefined) return; // a string is text: parsed above
    expect(parseArguments(value)).toEqual({
      ok: false,
      error: { code: 'invalid_arguments', issues: [{ path: '$', kind: 'type', expected: ['object'], received }] },
    });
  });
});

describe('parseArguments and numbers JavaScript cannot hold', () => {
  it.for([
    ['{"path":"a.txt","offset":1e400}', '$.offset', 'not_finite', "'offset' is 1e400, which is not a finite number"],
    ['{"a":[1,{"b":-1e309}]}', '$.a[1].b', 'not_finite', "'a[1].b' is -1e309, which is not a finite number"],
    ['{"n":9007199254740992}', '$.n', 'unsafe_integer', "'n' is 9007199254740992, an integer beyond ±9007199254740991"],
    ['{"n":-12345678901234567890}', '$.n', 'unsafe_integer', 'cannot be held exactly'],
    ['{"x y":{"n":1E999}}', '$["x y"].n', 'not_finite', 'is 1E999'],
    [`{"n":${'9'.repeat(400)}}`, '$.n', 'unsafe_integer', '(400 digits)'],
    // The scanner reads it too: here a forbidden key later sends the text down the slow road.
    ['{"n":1e400,"__proto__":1}', '$.n', 'not_finite', 'is 1e400'],
    ['{"list":[0,1,2,99999999999999999999]}', '$.list[3]', 'unsafe_integer', 'beyond'],
  ] as const)('refuses %s with its JSON path', ([text, path, kind, message]) => {
    const result = parseArguments(text);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_arguments', issues: [{ path, kind }] } });
    if (!result.ok && result.error.code === 'invalid_arguments') expect(describeIssue(result.error.issues[0]!)).toContain(message);
  });

  it.for([
    ['{"n":9007199254740991}', 9007199254740991],
    ['{"n":-9007199254740991}', -9007199254740991],
    ['{"f":1e300}', 1e300],
    ['{"f":1.7976931348623157e308}', 1.7976931348623157e308],
    ['{"f":12345678901234567890.5}', Number('12345678901234567890.5')],
    ['{"z":-0}', -0],
    ['{"u":1e-400}', 0],
  ] as const)('accepts %s: a float is a float, only integer literals must be exact', ([text, value]) => {
    const result = parseArguments(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(Object.is(Object.values(result.value)[0], value)).toBe(true);
  });

  it('keeps syntax errors ahead of numbers in the text, and numbers ahead of later syntax errors', () => {
    expect(parseArguments('{"__proto__":1,"n":1e400}')).toMatchObject({
      ok: false,
      error: { code: 'invalid_json', message: expect.stringContaining('__proto__') },
    });
    expect(parseArguments('[1e400]')).toMatchObject({ ok: false, error: { code: 'invalid_json', message: expect.stringContaining('must be a JSON object') } });
  });

  /** A number literal of any form: plain or huge integers, fractions, exponents up to overflow. */
  const literal = fc.oneof(
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }).map(String),
    fc.tuple(fc.integer({ min: -999, max: 999 }), fc.nat(999), fc.integer({ min: -420, max: 420 })).map(([a, b, e]) => `${a}.${b}e${e}`),
    fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 290, max: 330 })).map(([a, e]) => `${a}E+${e}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  );
  const position = fc.array(fc.oneof(fc.constantFrom('a', 'b c', 'constructor'), fc.nat(3)), { maxLength: 4 });

  it('refuses exactly the literals that do not survive, at their path, on both roads (property)', () => {
    fc.assert(
      fc.property(literal, position, fc.boolean(), (number, keys, slowRoad) => {
        let text = number;
        for (const key of [...keys].reverse()) text = typeof key === 'number' ? `[${'0,'.repeat(key)}${text}]` : `{${JSON.stringify(key)}:${text}}`;
        // A duplicate key after the number sends the text down the scanner's road; the number comes first.
        text = `{"v":${text}${slowRoad ? ',"d":1,"d":2' : ''}}`;
        const value = Number(number);
        const integer = !/[.eE]/.test(number);
        const refused = !Number.isFinite(value) || (integer && !Number.isSafeInteger(value));
        const result = parseArguments(text);
        const path = `$.v${keys.map((k) => (typeof k === 'number' ? `[${k}]` : k === 'b c' ? '["b c"]' : `.${k}`)).join('')}`;
        if (refused) expect(result).toMatchObject({ ok: false, error: { code: 'invalid_arguments', issues: [{ path }] } });
        else if (slowRoad) expect(result).toMatchObject({ ok: false, error: { code: 'invalid_json', message: expect.stringContaining('duplicate key') } });
        else expect(result).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 5_000 },
    );
  });
});

describe(checkArgumentValue, () => {
  const nest = (depth: number): unknown => (depth === 0 ? 1 : { a: nest(depth - 1) });
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { again: cyclic };

  it('accepts JSON data and hands back a copy, leaving out undefined properties as JSON would', () => {
    const input = { path: 'a.txt', options: { depth: 2, tags: ['x', null, true] }, limit: undefined };
    const result = checkArgumentValue(input);
    expect(result).toEqual({ ok: true, value: { path: 'a.txt', options: { depth: 2, tags: ['x', null, true] } } });
    if (result.ok) {
      expect(result.value).not.toBe(input);
      expect(result.value.options).not.toBe(input.options);
    }
  });

  it.for([
    ['a __proto__ key', JSON.parse('{"x":{"__proto__":{"polluted":true}}}'), { path: '$.x', kind: 'forbidden_key', key: '__proto__' }],
    ['constructor.prototype', { constructor: { prototype: { x: 1 } } }, { path: '$.constructor', kind: 'forbidden_key', key: 'prototype' }],
    ['NaN', { n: Number.NaN }, { path: '$.n', kind: 'not_finite', received: 'NaN' }],
    ['Infinity deep inside', { a: [1, { b: -Infinity }] }, { path: '$.a[1].b', kind: 'not_finite', received: '-Infinity' }],
    ['a bigint', { n: 1n }, { path: '$.n', kind: 'not_json', received: 'a bigint' }],
    ['a function', { f: () => 1 }, { path: '$.f', kind: 'not_json', received: 'a function' }],
    ['a Date', { when: new Date(0) }, { path: '$.when', kind: 'not_json', received: 'an instance of Date' }],
    ['a cycle', cyclic, { path: '$.self.again', kind: 'not_json', received: 'a cycle (it contains itself)' }],
    ['nesting past the limit', nest(65), { path: expect.stringMatching(/^\$(\.a){64}$/), kind: 'too_deep', maxDepth: 64 }],
  ] as const)('refuses %s as the text parser would, with its JSON path', ([, value, issue]) => {
    expect(checkArgumentValue(value)).toEqual({ ok: false, error: { code: 'invalid_arguments', issues: [issue] } });
  });

  it('accepts nesting up to the limit, as for text', () => {
    expect(checkArgumentValue(nest(63)).ok).toBe(true);
    expect(parseArguments(JSON.stringify(nest(63))).ok).toBe(true);
  });

  it('refuses more text than the length limit allows', () => {
    const limits = { maxLength: 100, maxDepth: 64 };
    expect(checkArgumentValue({ text: 'x'.repeat(90) }, limits).ok).toBe(true);
    expect(checkArgumentValue({ text: 'x'.repeat(101) }, limits)).toEqual({
      ok: false,
      error: { code: 'invalid_arguments', issues: [{ path: '$', kind: 'too_large', limit: 100 }] },
    });
  });

  it('reads each property once, and refuses a value whose reading throws', () => {
    let reads = 0;
    const counted = {
      get n() {
        return ++reads;
      },
    };
    expect(checkArgumentValue(counted)).toEqual({ ok: true, value: { n: 1 } });
    expect(reads).toBe(1);
    const throwing = {
      ok: 1,
      get bad(): never {
        throw new Error('trap');
      },
    };
    expect(checkArgumentValue(throwing)).toEqual({
      ok: false,
      error: { code: 'invalid_arguments', issues: [{ path: '$.bad', kind: 'not_json', received: 'a value that cannot be read (reading it threw)' }] },
    });
  });

  // Class: what the executor receives from a host that parsed already — any JavaScript value, not just JSON.
  it('never throws on any JavaScript value, and what it accepts is exactly its JSON, copied (property)', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      maxDepth: 6,
    });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), anything), (input) => {
        const result = checkArgumentValue(input);
        if (!result.ok) {
          expect(result.error.code).toBe('invalid_arguments');
          return;
        }
        // Nothing but JSON data survives, and it survives as JSON would write it (undefined properties left out).
        expect(JSON.stringify(result.value)).toBe(JSON.stringify(input));
        expect(result.value).not.toBe(input);
      }),
      { numRuns: 2000 },
    );
  });
});
