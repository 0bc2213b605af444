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
    text: typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(output),
  };
}

export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * JSON with object keys sorted at every level and no whitespace. Values JSON cannot hold are
 * refused with a clear error rather than silently dropped (`toJSON` is honoured, like JSON.stringify).
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const walk = (current: unknown, where: string): string => {
    if (current === null) return 'null';
    if (typeof current === 'string' || typeof current === 'boolean') return JSON.stringify(current);
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) throw new TypeError(`${where} is ${current}, which JSON cannot represent`);
      return JSON.stringify(current);
    }
    if (typeof current === 'bigint') throw new TypeError(`${where} is a bigint, which JSON cannot represent`);
    if (typeof current !== 'object') throw new TypeError(`${where} is a ${typeof current}, which JSON cannot represent`);
    const withJson = current as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return walk(withJson.toJSON(), where);
    if (seen.has(current)) throw new TypeError(`${where} refers back to itself (a cycle), which JSON cannot represent`);
    seen.add(current);
    let out: string;
    if (Array.isArray(current)) {
      out = `[${current.map((item, i) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : walk(item, `${where}[${i}]`))).join(',')}]`;
    } else {
      const keys = Object.keys(current).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const child = (current as Record<string, unknown>)[key];
        if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
        parts.push(`${JSON.stringify(key)}:${walk(child, `${where}.${key}`)}`);
      }
      out = `{${parts.join(',')}}`;
    }
    seen.delete(current);
    return out;
  };
  return walk(value, 'the output');
}
