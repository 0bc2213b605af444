import { CoreToolError, guardedRequest, type RedirectHop } from '@toolwright/core-tools';
import { networkRefusal } from '../network-grant.js';
import type { ToolDestinations } from '../tool-destinations.js';
import { HostStatus, type HostReply } from './host-status.js';

/** What a module's `toolwright.http_get` may reach, for one call. */
export interface NetworkGrant {
  /** The call's explicit capabilities (`net.connect` or `net.connect:<host>` needed), or undefined: all granted. */
  capabilities: readonly string[] | undefined;
  /** The tool's addresses and ports (`allowAddresses`, `allowPorts`). */
  destinations: ToolDestinations;
  /** Largest body handed to the module. */
  maxBytes: number;
  /** Ends the request: the call's signal, or the job's end. */
  signal: AbortSignal;
}

/** Largest response body a module receives, whatever its memory. */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** Most redirects a module's GET follows. */
const MAX_REDIRECTS = 5;
const HEADERS = { 'user-agent': 'Toolwright-wasm-tool/0.1', accept: '*/*' };

/** A refused hop, thrown from `onRedirect` so the guarded request stops before sending anything to it. */
class NetworkRefused extends Error {}

/**
 * GETs `url` for a module through core-tools' SSRF-safe request: the call must hold the network for the URL's host
 * and for every redirect's; addresses and ports are judged on each hop by the tool's destinations; the body is read
 * up to `maxBytes` (one more byte tells a longer body, answered `tooLarge` with the connection closed). Any HTTP
 * status is a success: the reply carries it beside the body. `refuse` records a refusal and gives its reply.
 */
export async function hostHttpGet(url: string, grant: NetworkGrant, refuse: (reason: string) => HostReply): Promise<HostReply> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { code: HostStatus.invalid };
  }
  const refused = networkRefusal(grant.capabilities, target);
  if (refused) return refuse(`GET ${target.host}: ${refused}`);
  const onRedirect = (hop: RedirectHop) => {
    const hopRefused = networkRefusal(grant.capabilities, hop.to);
    if (hopRefused) throw new NetworkRefused(`GET ${target.host}, redirected to ${hop.to.host}: ${hopRefused}`);
  };
  try {
    const answer = await guardedRequest(url, { method: 'GET', headers: HEADERS, onRedirect }, grant.destinations, {
      maxBytes: grant.maxBytes + 1,
      maxRedirects: MAX_REDIRECTS,
      signal: grant.signal,
    });
    if (answer.truncated || answer.body.length > grant.maxBytes) return { code: HostStatus.tooLarge, status: answer.status };
    // A copy of exactly the body: a pooled Buffer's backing store may hold other bytes, and all of it would be posted.
    return { code: HostStatus.ok, data: new Uint8Array(answer.body), status: answer.status };
  } catch (error) {
    if (error instanceof NetworkRefused) return refuse(error.message);
    if (!(error instanceof CoreToolError)) return { code: HostStatus.failed };
    if (error.code === 'address_refused') return refuse(`GET ${target.host}: ${error.message}`);
    if (error.code === 'invalid_url') return { code: HostStatus.invalid };
    return { code: HostStatus.failed };
  }
}
