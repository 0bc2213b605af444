/** How an escalation reads when its hook or assessor gave no words for it. */
const UNWORDED_ESCALATION = 'it asks to run outside the sandbox';

/**
 * A risk answer's `escalation`, read defensively: absent, `null`, `false` or `''` is none; a non-empty
 * string is kept as the hook worded it; anything else (`true`, an object: a hand-written risk hook or
 * a host's own `assessRisk`) is still an escalation, worded generically.
 * @example escalationOf(true) // 'it asks to run outside the sandbox'
 */
export function escalationOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === false || value === '') return undefined;
  return typeof value === 'string' ? value : UNWORDED_ESCALATION;
}
