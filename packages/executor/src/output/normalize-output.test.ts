import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, MAX_JSON_CHARS, MAX_JSON_NODES, normaliseOutput, OutputTooLargeError, sha256Hex } from './normalize-output.js';

describe(canonicalJson, () => {
  it('sorts keys at every level and drops what JSON.stringify drops', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined, () => 1], c: 'x' }, u: undefined, f: () => 1 })).toBe('{"a":{"c":"x","d":[1,null,null]},"b":1}');
  });

  it('matches JSON.stringify for scalars and honours toJSON', () => {
    for (const value of ['a"b\n', -0, 1e21, 0.1, true, false, null, 'é\u2028']) expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it.for([
    [{ a: [1, { b: Number.NaN }] }, 'the output.a[1].b is NaN, which JSON cannot represent'],
    [{ big: 1n }, 'the output.big is a bigint, which JSON cannot represent'],
    [[Symbol('s')].map((s) => ({ s: [s] }))[0], undefined],
  ] as const)('refuses values JSON cannot hold, naming where they are (%#)', ([value, message]) => {
    if (message) expect(() => canonicalJson(value)).toThrow(message);
    else expect(canonicalJson(value)).toBe('{"s":[null]}');
  });

  it('refuses cycles but accepts the same object twice side by side', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = { again: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow('the output.self.again is a cycle (it refers back to itself)');
  });
});

describe(normaliseOutput, () => {
  it('hashes the canonical form and keeps the model text in the order the tool returned', () => {
    const out = normaliseOutput({ z: 1, a: 2 });
    expect(out).toEqual({ normalised: '{"a":2,"z":1}', hash: sha256Hex('{"a":2,"z":1}'), text: '{"z":1,"a":2}' });
    expect(normaliseOutput('plain').text).toBe('plain');
    expect(normaliseOutput(undefined)).toMatchObject({ normalised: 'null', text: '' });
    expect(normaliseOutput(42)).toMatchObject({ normalised: '42', text: '42' });
  });
});

describe('the size budget of normaliseOutput and canonicalJson', () => {
  it.for([
    ['a sparse array of length 2^32 - 1', () => ({ a: new Array(2 ** 32 - 1) }), 'the output.a is an array of 4,294,967,295 elements'],
    ['a sparse array of length 1e8', () => ({ a: [1, new Array(1e8)] }), 'the output.a[1] is an array of 100,000,000 elements'],
    ['a 50 MB Buffer', () => ({ file: Buffer.allocUnsafe(50 * 1024 * 1024) }), 'the output.file is binary data of 52,428,800 elements'],
    ['a large typed array', () => new Float64Array(2_000_000), 'the output is binary data of 2,000,000 elements'],
    [
      'a proxy claiming a huge length',
      () => new Proxy([], { get: (target, key) => (key === 'length' ? 1e12 : Reflect.get(target, key)) }),
      'the output is an array of 1,000,000,000,000 elements',
    ],
    [
      'too many values in all',
      () => Array.from({ length: 1_000 }, () => Array.from({ length: 1_001 }, () => 0)),
      'the output[998] is an array of 1,001 elements, over the limit of 1,000,000 values in all',
    ],
    ['too much text', () => ({ a: 'x'.repeat(MAX_JSON_CHARS - 10), b: 'y'.repeat(20) }), 'the output.b holds more than 10,485,760 characters of text'],
    ['a key too long', () => ({ ['k'.repeat(MAX_JSON_CHARS + 1)]: 1 }), 'holds more than 10,485,760 characters of text'],
  ] as const)('refuses %s at once with OutputTooLargeError', ([, make, message]) => {
    expect(() => normaliseOutput(make())).toThrow(OutputTooLargeError);
    expect(() => normaliseOutput(make())).toThrow(message);
  });

  it('accepts values up to the budget, and binary data within it as JSON.stringify writes it', () => {
    expect(normaliseOutput(new Array(MAX_JSON_NODES - 1).fill(0)).normalised).toHaveLength(2 * (MAX_JSON_NODES - 1) + 1);
    expect(canonicalJson({ b: Buffer.from('hi') })).toBe('{"b":{"data":[104,105],"type":"Buffer"}}');
    expect(normaliseOutput(new Uint8Array([7, 8])).text).toBe(JSON.stringify(new Uint8Array([7, 8])));
  });

  it('reads each property once, even when the model text keeps the tool order', () => {
    let reads = 0;
    let jsons = 0;
    const output = {
      z: 1,
      get a() {
        reads++;
        return {
          y: 2,
          x: [
            {
              toJSON: () => {
                jsons++;
                return 'j';
              },
            },
          ],
        };
      },
    };
    expect(normaliseOutput(output)).toMatchObject({ normalised: '{"a":{"x":["j"],"y":2},"z":1}', text: '{"z":1,"a":{"y":2,"x":["j"]}}' });
    expect([reads, jsons]).toEqual([1, 1]);
  });

  it('writes the model text as JSON.stringify does and the normalised form with sorted keys (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = normaliseOutput(value);
        expect(JSON.parse(out.normalised)).toEqual(JSON.parse(JSON.stringify(value)));
        if (typeof value === 'string') return;
        expect(out.text).toBe(JSON.stringify(value));
        expect(out.normalised).toBe(canonicalJson(JSON.parse(out.text)));
      }),
      { numRuns: 2_000 },
    );
  });
});
