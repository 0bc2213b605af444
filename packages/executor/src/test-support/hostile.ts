/** Values and behaviours a hostile or broken tool, hook or host can produce, for the executor's never-reject tests. */

/** A proxy whose every trap throws (reading it, testing it, listing it). */
export function trapEverything(label = 'trap'): object {
  const fail = () => {
    throw new Error(`${label}: do not touch`);
  };
  return new Proxy({}, { get: fail, has: fail, ownKeys: fail, getOwnPropertyDescriptor: fail, getPrototypeOf: fail, apply: fail });
}

function cycle(): object {
  const loop: Record<string, unknown> = { name: 'loop' };
  loop.self = { again: loop };
  return loop;
}

function deep(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** What a tool may hand back: its own strange values, resolved or not. */
export const HOSTILE_RETURNS: Record<string, () => unknown> = {
  NaN: () => Number.NaN,
  Infinity: () => Number.POSITIVE_INFINITY,
  '-0': () => -0,
  'a NaN deep inside': () => ({ rows: [{ score: Number.NaN }] }),
  'a cycle': cycle,
  'a bigint': () => ({ size: 10n }),
  'a function': () => () => 1,
  'a symbol': () => Symbol('s'),
  undefined: () => undefined,
  'a throwing getter': () => ({
    get boom(): never {
      throw new Error('getter');
    },
  }),
  'a proxy that throws': () => trapEverything('returned'),
  'a throwing toJSON': () => ({
    toJSON: () => {
      throw 'no json';
    },
  }),
  'a toJSON returning itself': () => {
    const self = { toJSON: () => self };
    return self;
  },
  'nesting 20,000 deep': () => deep(20_000),
  'a huge string': () => 'x'.repeat(200_000),
  'a sparse array of length 2^32 - 1': () => ({ a: new Array(2 ** 32 - 1) }),
  'a sparse array of length 1e8': () => ({ a: new Array(1e8) }),
  'a 50 MB Buffer': () => Buffer.allocUnsafe(50 * 1024 * 1024),
  'a typed array of 10 million numbers': () => ({ samples: new Float64Array(10_000_000) }),
  'a lone surrogate': () => 'a\ud800b',
  'a thenable rejecting with a proxy': () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(trapEverything('rejection')) }),
  'a thenable rejecting with undefined': () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(undefined) }),
  'a thenable whose then throws': () => ({
    get then(): never {
      throw new Error('then getter');
    },
  }),
  'a thenable resolving to NaN': () => ({ then: (resolve: (v: unknown) => void) => resolve(Number.NaN) }),
  'a promise of a bigint': () => Promise.resolve(5n),
  'a promise rejecting with a symbol': () => Promise.reject(Symbol('why')),
};

/** What a tool (or hook, or host callback) may throw. */
export const HOSTILE_THROWS: Record<string, () => unknown> = {
  'a string': () => 'plain failure',
  'an empty string': () => '',
  undefined: () => undefined,
  null: () => null,
  'a number': () => 42,
  'a bigint': () => 7n,
  'a symbol': () => Symbol('thrown'),
  'a cycle': cycle,
  'an object whose getters throw': () => ({
    get message(): never {
      throw new Error('m');
    },
    get name(): never {
      throw new Error('n');
    },
    get code(): never {
      throw new Error('c');
    },
  }),
  'an object whose toString throws': () => ({
    toString: () => {
      throw new Error('toString');
    },
    toJSON: () => {
      throw new Error('toJSON');
    },
  }),
  'a proxy that throws': () => trapEverything('thrown'),
  'an error with a code': () => Object.assign(new Error('no such file: a.txt'), { code: 'not_found' }),
  'an error with a hostile code': () => Object.assign(new Error('x'), { code: 'not a code; rm -rf /' }),
  'a raw ENOENT': () => Object.assign(new Error("ENOENT: no such file or directory, lstat '/w/link'"), { code: 'ENOENT', errno: -2 }),
  'an error with a 1 MB message': () => new Error('m'.repeat(1 << 20)),
  'a function': () => () => 1,
};
