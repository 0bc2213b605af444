import type { PolicyEffect, PolicyProof } from '../ports.js';

/** The proof a test policy gives with its verdict: the decision, a made-up policy hash and time, and `fields`. */
export function testProof(decision: PolicyEffect, fields: Omit<Partial<PolicyProof>, 'decision'> = {}): PolicyProof {
  return { decision, policyHash: 'test-policy', evaluatedAt: '2026-01-01T00:00:00.000Z', ...fields };
}
