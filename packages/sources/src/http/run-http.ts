import { guardedRequest } from '@toolwright/core-tools';
import { SourceError } from '../source-error.js';
import type { HttpToolOptions } from '../source-options.js';
import type { SourceRequest } from '../source-request.js';
import { httpResult } from './http-answer.js';
import { httpEndpoint } from './http-endpoint.js';
import { callEnded, httpFailure } from './http-failure.js';
import { networkRefusal } from '../network-grant.js';
import { judgeRedirect, MAX_REDIRECTS } from './redirect-rule.js';

/**
 * Calls an HTTP tool: POSTs the arguments as a JSON object to the endpoint through core-tools' SSRF-safe request
 * (public addresses on the web ports only, unless the tool's `allowAddresses`/`allowPorts` say otherwise; each
 * redirect judged afresh; no proxy from the environment) and resolves to the JSON it answers. The request ends —
 * its socket destroyed — when the call's signal aborts or the body passes `maxResponseBytes`.
 */
export async function runHttp(request: SourceRequest<string, HttpToolOptions>): Promise<unknown> {
  const endpoint = httpEndpoint(request.target, request.options, request.tool);
  const granted = request.context?.capabilities;
  const refused = networkRefusal(granted, endpoint.url);
  if (refused) throw new SourceError('address_refused', refused);
  if (request.signal.aborted) throw callEnded(request);
  let answer: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    answer = await guardedRequest(
      endpoint.url.href,
      {
        method: 'POST',
        headers: endpoint.headers,
        originHeaders: endpoint.originHeaders,
        body: JSON.stringify(request.input),
        onRedirect: (hop) => judgeRedirect(hop, granted),
      },
      endpoint.destinations,
      // One byte past the cap tells a body of exactly the cap from a longer one.
      { maxBytes: endpoint.maxResponseBytes + 1, maxRedirects: MAX_REDIRECTS, signal: request.signal },
    );
  } catch (error) {
    throw httpFailure(error, request);
  }
  return httpResult(answer, endpoint.maxResponseBytes);
}
