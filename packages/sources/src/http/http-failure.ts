import { CoreToolError } from '@toolwright/core-tools';
import { SourceError } from '../source-error.js';
import type { SourceRequest } from '../source-request.js';

/** Said after a refusal, for the operator: how an internal endpoint or another port is allowed. */
const ALLOW_HINT = "(the tool's allowAddresses and allowPorts options list the internal addresses and other ports it may reach)";

/**
 * The `SourceError` a failed request ends in: the call's end first (its deadline is `resource_exhausted`/`time`,
 * anything else `cancelled`), then the guarded request's refusals (`address_refused`), a redirect to what cannot
 * be followed (`http_error`) and an endpoint that cannot be reached or broke off (`source_failed`). Anything else
 * is a bug and stays as it is.
 */
export function httpFailure(error: unknown, request: SourceRequest<string, unknown>): unknown {
  if (error instanceof SourceError) return error;
  if (request.signal.aborted) return callEnded(request);
  if (!(error instanceof CoreToolError)) return error;
  switch (error.code) {
    case 'address_refused':
      return new SourceError('address_refused', `${error.message} ${ALLOW_HINT}`);
    case 'invalid_url':
      return new SourceError('http_error', `the endpoint redirected to a URL that cannot be followed: ${error.message}`);
    case 'fetch_failed':
      return new SourceError('source_failed', error.message);
    default:
      return error;
  }
}

/** The call's signal aborted: at its deadline, or cancelled. */
export function callEnded(request: SourceRequest<string, unknown>): SourceError {
  const reason = request.signal.reason as { name?: unknown } | undefined;
  if (reason?.name === 'TimeoutError')
    return new SourceError(
      'resource_exhausted',
      `the endpoint did not answer within the tool's ${request.declaration.metadata.timeoutMs} ms time limit`,
      'time',
    );
  return new SourceError('cancelled', 'the call was cancelled before the endpoint answered');
}
