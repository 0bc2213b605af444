import { CoreToolError } from '../core-tool-error.js';

/**
 * The error a call whose worker job was aborted rejects with: the signal's reason when it is an
 * Error (the executor's timeout, a host's own error), else a `cancelled` CoreToolError saying `message`.
 * @example if (outcome.stop === 'aborted') throw abortError(outcome.reason, 'The search was cancelled.');
 */
export function abortError(reason: unknown, message: string): Error {
  return reason instanceof Error ? reason : new CoreToolError('cancelled', message);
}
