import { describe, expect, it } from 'vitest';
import { canonicalJson, normaliseOutput, sha256Hex } from './normalize-output.js';

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
    expect(() => canonicalJson(cyclic)).toThrow('the output.self.again refers back to itself (a cycle)');
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
