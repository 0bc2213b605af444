import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ToolCall } from './tool-call.js';

/** What an approval token is bound to: exactly one call. */
export interface ApprovedCall {
  tool: string;
  callId: string;
  /** sha-256 of the canonical arguments (the executor's `argsHash`). */
  argsHash: string;
}

export type TokenCheck = { ok: true } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'replayed' };

/**
 * Out-of-band approvals (a UI, a chat button, a second device) as HMAC-signed tokens bound to the
 * tool, the call id and the canonical argument hash. A token approves one call once: a forged token
 * fails the signature, a token for other arguments or another call fails the binding, and a replayed
 * one is refused while it is still unexpired.
 */
export class ApprovalTokens {
  private readonly secret: Buffer;
  private readonly used = new Map<string, number>();

  constructor(options: { secret?: string | Buffer; ttlMs?: number; now?: () => number } = {}) {
    this.secret = options.secret === undefined ? randomBytes(32) : Buffer.from(options.secret);
    if (this.secret.length < 16) throw new RangeError('an approval secret must be at least 16 bytes');
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  private readonly ttlMs: number;
  private readonly now: () => number;

  /** A token approving exactly this call, valid for `ttlMs`. */
  issue(call: ApprovedCall): string {
    const expires = this.now() + this.ttlMs;
    const nonce = randomBytes(12).toString('base64url');
    return `tw1.${expires}.${nonce}.${this.sign(call, expires, nonce)}`;
  }

  /** Checks a token against a call and consumes it. */
  verify(token: string, call: ApprovedCall): TokenCheck {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 4 || parts[0] !== 'tw1' || !/^\d{1,15}$/.test(parts[1]!) || !/^[\w-]{16}$/.test(parts[2]!) || !/^[\w-]{43}$/.test(parts[3]!))
      return { ok: false, reason: 'malformed' };
    const expires = Number(parts[1]);
    const nonce = parts[2]!;
    const given = Buffer.from(parts[3]!, 'base64url');
    const expected = Buffer.from(this.sign(call, expires, nonce), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      // The binding is inside the signature: a token for another call or other arguments lands here too.
      return { ok: false, reason: 'bad_signature' };
    }
    const now = this.now();
    if (expires < now) return { ok: false, reason: 'expired' };
    this.forgetExpired(now);
    if (this.used.has(nonce)) return { ok: false, reason: 'replayed' };
    this.used.set(nonce, expires);
    return { ok: true };
  }

  /**
   * A `CallContext.preApproved` function: the call is pre-approved when `tokenFor(call)` gives a
   * token that verifies for it.
   */
  preApproved(tokenFor: (call: ToolCall) => string | undefined): (call: ToolCall, argsHash: string) => boolean {
    return (call, argsHash) => {
      const token = tokenFor(call);
      return token !== undefined && this.verify(token, { tool: call.name, callId: call.id, argsHash }).ok;
    };
  }

  private sign(call: ApprovedCall, expires: number, nonce: string): string {
    return createHmac('sha256', this.secret)
      .update(JSON.stringify(['toolwright-approval-v1', call.tool, call.callId, call.argsHash, expires, nonce]))
      .digest('base64url');
  }

  private forgetExpired(now: number): void {
    if (this.used.size < 1024) return;
    for (const [nonce, expires] of this.used) if (expires < now) this.used.delete(nonce);
  }
}
