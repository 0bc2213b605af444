import crypto from 'node:crypto';

/** One-shot hashing (Node ≥ 20.12) is several times cheaper than createHash for small inputs. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export interface NormalisedOutput {
  /** Sorted-key JSON of the output (strings are JSON-encoded too), the basis of the hash. */
  normalised: string;
  /** sha-256 of `normalised`, hex: equal outputs of deterministic tools can be cached and replayed. */
  hash: string;
  /** The text the model reads: the string itself, or compact JSON for structured output. */
  text: string;
}

/** Normalises and hashes a tool's output (seed 001: NormalizationRule::Json). */
export function normaliseOutput(output: unknown): NormalisedOutput {
  const normalised = canonicalJson(output === undefined ? null : output);
  return {
    normalised,
    hash: sha256Hex(normalised),
    text: typeof output === 'string' ? output : output === undefined ? '' : typeof output === 'object' && output !== null ? JSON.stringify(output) : normalised,
  };
}

export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * JSON with object keys sorted at every level and no whitespace. Values JSON cannot hold are
 * refused with a clear error rather than silently dropped (`toJSON` is honoured, like JSON.stringify).
 * The path named in an error is rebuilt only when there is one: the walk itself allocates nothing but
 * the output.
 */
export function canonicalJson(value: unknown, root = 'the output'): string {
  return walk(value, { ancestors: [], keys: [], root });
}

interface WalkState {
  /** Objects being serialised around the current value (a cycle returns to one of them). */
  ancestors: object[];
  /** Keys and indexes from the root to the current value, for error messages. */
  keys: (string | number)[];
  /** What the value is, for error messages ("the output", "the arguments"). */
  root: string;
}

function walk(current: unknown, state: WalkState, replaced = false): string {
  switch (typeof current) {
    case 'string':
      return stringJson(current);
    case 'boolean':
      return current ? 'true' : 'false';
    case 'number':
      return Number.isFinite(current) ? String(current) : refuse(state, `is ${current}`);
    case 'bigint':
      return refuse(state, 'is a bigint');
    case 'object':
      break;
    default:
      return refuse(state, `is a ${typeof current}`);
  }
  if (current === null) return 'null';
  const withJson = current as { toJSON?: () => unknown };
  // Like JSON.stringify, toJSON is applied once: a toJSON that returns its own object does not loop.
  if (!replaced && typeof withJson.toJSON === 'function') return walk(withJson.toJSON(), state, true);
  const { ancestors, keys } = state;
  if (ancestors.includes(current)) refuse(state, 'refers back to itself (a cycle)');
  ancestors.push(current);
  let out: string;
  if (Array.isArray(current)) {
    out = '[';
    for (let i = 0; i < current.length; i++) {
      const item: unknown = current[i];
      keys.push(i);
      out += (i > 0 ? ',' : '') + (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : walk(item, state));
      keys.pop();
    }
    out += ']';
  } else {
    const names = Object.keys(current).sort();
    out = '{';
    for (const key of names) {
      const child = (current as Record<string, unknown>)[key];
      if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
      keys.push(key);
      out += (out.length > 1 ? ',' : '') + stringJson(key) + ':' + walk(child, state);
      keys.pop();
    }
    out += '}';
  }
  ancestors.pop();
  return out;
}

function refuse(state: WalkState, what: string): never {
  throw new TypeError(`${describePath(state.root, state.keys)} ${what}, which JSON cannot represent`);
}

/** `the output.items[2].name`: where a value sits, for error messages. */
function describePath(root: string, keys: readonly (string | number)[]): string {
  let path = root;
  for (const key of keys) path += typeof key === 'number' ? `[${key}]` : `.${key}`;
  return path;
}

/** A string as JSON; short printable-ASCII strings (most keys, ids and hashes) skip `JSON.stringify`. */
export function stringJson(text: string): string {
  return text.length <= 128 && isPlain(text) ? `"${text}"` : JSON.stringify(text);
}

/** Printable ASCII other than `"` and `\\`: JSON needs no escapes for it. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}
