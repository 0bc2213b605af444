import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpServeError } from './http-serve-error.js';

/**
 * Checks `Authorization: Bearer <token>` against one secret in constant time: both sides are hashed
 * first, so neither the comparison nor an early length mismatch tells an attacker how much matched.
 */
export class BearerAuth {
  private readonly digest: Buffer;

  constructor(token: string) {
    if (token.length === 0) throw new HttpServeError('the bearer token is empty');
    if (/[\s\u0000-\u001f\u007f]/.test(token))
      throw new HttpServeError('the bearer token contains whitespace or control characters, which an Authorization header cannot carry');
    this.digest = sha256(token);
  }

  /** `ok`, or whether a token was missing or wrong (for the `WWW-Authenticate` answer). */
  check(header: string | undefined): 'ok' | 'missing' | 'invalid' {
    const match = header === undefined ? null : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
    if (!match) return header === undefined ? 'missing' : 'invalid';
    return timingSafeEqual(sha256(match[1]!), this.digest) ? 'ok' : 'invalid';
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
