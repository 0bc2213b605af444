import crypto from 'node:crypto';

/** One-shot hashing (Node ≥ 20.12) is several times cheaper than createHash for small inputs. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export interface NormalisedOutput {
  /** Sorted-key JSON of the output (strings are JSON-encoded too), the basis of the hash. */
  normalised: string;
  /** sha-256 of `normalised`, hex: equal outputs of deterministic tools can be cached and replayed. */
  hash: string;
  /** The text the model reads: the string itself, or compact JSON (keys in the tool's order) for structured output. */
  text: string;
}

/** Most values (array elements, object properties, scalars) one output or argument object may hold. */
export const MAX_JSON_NODES = 1_000_000;
/** Most characters of strings and keys one output may hold: about 10 MiB of JSON text. */
export const MAX_JSON_CHARS = 10 * 1024 * 1024;

/** A value over `MAX_JSON_NODES` or `MAX_JSON_CHARS`: refused before it is walked, copied or hashed. */
export class OutputTooLargeError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutputTooLargeError';
  }
}

/** A value JSON cannot hold (NaN, a bigint, a function, a cycle): where it is (`keys`) and what it is. */
export class UnrepresentableError extends TypeError {
  constructor(
    message: string,
    readonly keys: readonly (string | number)[],
    readonly received: string,
  ) {
    super(message);
    this.name = 'UnrepresentableError';
  }
}

/**
 * Normalises a tool's output to sorted-key JSON and hashes it, in one walk that reads
 * each property once (a getter runs once, a `toJSON` is called once) and stops at the size budget.
 */
export function normaliseOutput(output: unknown): NormalisedOutput {
  const state = newState('the output');
  const normalised = walk(output === undefined ? null : output, state);
  return {
    normalised,
    hash: sha256Hex(normalised),
    text: typeof output === 'string' ? output : output === undefined ? '' : state.text,
  };
}

export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/** A call's `argsHash`: sha-256 of its arguments' canonical JSON (throws for arguments that are not JSON). */
export function argumentsHash(args: unknown): string {
  return sha256Hex(canonicalJson(args, 'the arguments'));
}

/**
 * JSON with object keys sorted at every level and no whitespace. Values JSON cannot hold are
 * refused with a clear error rather than silently dropped (`toJSON` is honoured, like JSON.stringify).
 * The path named in an error is rebuilt only when there is one: the walk itself allocates nothing but
 * its JSON texts. A value over the budget (`MAX_JSON_NODES` values, `MAX_JSON_CHARS` characters) throws
 * `OutputTooLargeError`; an array's or typed array's length is checked before it is read, so a sparse
 * array of length 2^32 − 1 costs nothing.
 */
export function canonicalJson(value: unknown, root = 'the output'): string {
  return walk(value, newState(root));
}

interface WalkState {
  /** Objects being serialised around the current value (a cycle returns to one of them). */
  ancestors: object[];
  /** The same objects as a set, while the walk is deeper than `SET_DEPTH`. */
  deep?: Set<object> | undefined;
  /** Keys and indexes from the root to the current value, for error messages. */
  keys: (string | number)[];
  /** What the value is, for error messages ("the output", "the arguments"). */
  root: string;
  /** Values and characters still allowed. */
  nodesLeft: number;
  charsLeft: number;
  /** The last walked value as JSON with its keys in their own order (the same string when already sorted). */
  text: string;
}

const SET_DEPTH = 64;

function newState(root: string): WalkState {
  return { ancestors: [], keys: [], root, nodesLeft: MAX_JSON_NODES, charsLeft: MAX_JSON_CHARS, text: '' };
}

function walk(current: unknown, state: WalkState, replaced = false): string {
  if (--state.nodesLeft < 0) tooLarge(state, `holds more than ${MAX_JSON_NODES.toLocaleString('en-US')} values`);
  switch (typeof current) {
    case 'string':
      if ((state.charsLeft -= current.length) < 0) tooLarge(state, `holds more than ${MAX_JSON_CHARS.toLocaleString('en-US')} characters of text`);
      return (state.text = stringJson(current));
    case 'boolean':
      return (state.text = current ? 'true' : 'false');
    case 'number':
      return (state.text = Number.isFinite(current) ? String(current) : refuse(state, String(current)));
    case 'bigint':
      return refuse(state, 'a bigint');
    case 'object':
      break;
    default:
      return refuse(state, `a ${typeof current}`);
  }
  if (current === null) return (state.text = 'null');
  // Checked before toJSON: a Buffer's toJSON copies every byte into an array of numbers.
  if (ArrayBuffer.isView(current)) checkLength(state, (current as { length?: unknown }).length ?? current.byteLength, 'binary data of');
  const withJson = current as { toJSON?: () => unknown };
  // Like JSON.stringify, toJSON is applied once: a toJSON that returns its own object does not loop.
  if (!replaced && typeof withJson.toJSON === 'function') return walk(withJson.toJSON(), state, true);
  const { ancestors } = state;
  const depth = ancestors.length;
  // A short list is searched faster than a set is kept; deeper down a set keeps each check O(1).
  if (depth < SET_DEPTH ? ancestors.includes(current) : (state.deep ??= new Set(ancestors)).has(current)) refuse(state, 'a cycle (it refers back to itself)');
  ancestors.push(current);
  if (depth >= SET_DEPTH) state.deep!.add(current);
  const out = Array.isArray(current) ? walkArray(current, state) : walkObject(current, state);
  ancestors.pop();
  if (depth >= SET_DEPTH) state.deep!.delete(current);
  if (depth === SET_DEPTH) state.deep = undefined;
  return out;
}

function walkArray(current: readonly unknown[], state: WalkState): string {
  const length = checkLength(state, current.length, 'an array of');
  let out = '[';
  let text = '[';
  let same = true;
  for (let i = 0; i < length; i++) {
    const item: unknown = current[i];
    const comma = i > 0 ? ',' : '';
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
      out += `${comma}null`;
      text += `${comma}null`;
      continue;
    }
    state.keys.push(i);
    const child = walk(item, state);
    state.keys.pop();
    out += comma + child;
    text += comma + state.text;
    same &&= state.text === child;
  }
  out += ']';
  state.text = same ? out : `${text}]`;
  return out;
}

function walkObject(current: object, state: WalkState): string {
  const names = Object.keys(current);
  checkLength(state, names.length, 'an object of');
  let sorted = true;
  for (let i = 1; i < names.length && sorted; i++) sorted = names[i - 1]! <= names[i]!;
  // Each property is read once, in sorted order; the model text lists them in the object's own order.
  const order = sorted ? undefined : names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : 1));
  const texts = order ? new Array<string | undefined>(names.length) : undefined;
  let out = '{';
  let text = '{';
  let same = true;
  for (let j = 0; j < names.length; j++) {
    const i = order ? order[j]! : j;
    const key = names[i]!;
    const child = (current as Record<string, unknown>)[key];
    if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
    if ((state.charsLeft -= key.length) < 0) tooLarge(state, `holds more than ${MAX_JSON_CHARS.toLocaleString('en-US')} characters of text`);
    state.keys.push(key);
    const json = walk(child, state);
    state.keys.pop();
    const entry = `${stringJson(key)}:`;
    out += (out.length > 1 ? ',' : '') + entry + json;
    if (texts) {
      texts[i] = entry + state.text;
    } else {
      text += (text.length > 1 ? ',' : '') + entry + state.text;
      same &&= state.text === json;
    }
  }
  out += '}';
  if (texts) {
    for (const entry of texts) if (entry !== undefined) text += (text.length > 1 ? ',' : '') + entry;
  }
  state.text = !texts && same ? out : `${text}}`;
  return out;
}

/** The length of an array-like as a count to walk, refused when it is over what the budget has left. */
function checkLength(state: WalkState, length: unknown, what: string): number {
  const count = Number(length);
  if (!(count >= 0 && count <= state.nodesLeft)) {
    tooLarge(
      state,
      `is ${what} ${Number.isFinite(count) ? count.toLocaleString('en-US') : String(count)} elements, over the limit of ${MAX_JSON_NODES.toLocaleString('en-US')} values in all`,
    );
  }
  return count;
}

function tooLarge(state: WalkState, what: string): never {
  throw new OutputTooLargeError(`${describePath(state.root, state.keys)} ${what}`);
}

function refuse(state: WalkState, received: string): never {
  throw new UnrepresentableError(`${describePath(state.root, state.keys)} is ${received}, which JSON cannot represent`, [...state.keys], received);
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
