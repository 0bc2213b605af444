import type { RedirectHop } from '@toolwright/core-tools';
import { SourceError } from '../source-error.js';
import { networkRefusal } from '../network-grant.js';
import { textExcerpt } from './text-excerpt.js';

/** Most redirects an HTTP tool's request follows. */
export const MAX_REDIRECTS = 5;

/**
 * Whether a redirect of the tool's POST is followed, judged before anything is sent to its target: a 307 or 308
 * (which keep the method and the body) is, up to `MAX_REDIRECTS`, to a host the call may reach; a 301, 302 or 303
 * would turn the POST into a GET without the arguments, so it is refused (`http_error`): an endpoint that answers so
 * is not a tool endpoint, or the tool names an old URL. The address policy then judges the target afresh.
 */
export function judgeRedirect(hop: RedirectHop, granted: readonly string[] | undefined): void {
  const to = textExcerpt(hop.to.href, 200);
  if (hop.status === 301 || hop.status === 302 || hop.status === 303)
    throw new SourceError(
      'http_error',
      `the endpoint redirected the call with HTTP ${hop.status} to ${to}, which would drop its arguments (only 307 and 308 redirects are followed): point the tool at the URL that answers`,
    );
  if (hop.followed >= MAX_REDIRECTS)
    throw new SourceError('http_error', `the endpoint redirected more than ${MAX_REDIRECTS} times (last to ${to}): point the tool at the URL that answers`);
  const refused = networkRefusal(granted, hop.to);
  if (refused) throw new SourceError('address_refused', refused);
}
