import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import { AddressPolicy } from './address-policy.js';
import { PortPolicy } from './port-policy.js';
import { CoreToolError, type CoreToolErrorCode } from '../core-tool-error.js';

export interface FetchLimits {
  /** Largest decompressed body kept, in bytes. */
  maxBytes: number;
  /** Most redirects followed. */
  maxRedirects: number;
  signal: AbortSignal;
  userAgent: string;
}

/** The limits of a `guardedRequest`: those of a fetch, the user agent being the request's own header. */
export type RequestLimits = Omit<FetchLimits, 'userAgent'>;

/** What a `guardedRequest` sends. */
export interface GuardedRequestInit {
  method: string;
  /** Sent to every hop. */
  headers: Record<string, string>;
  /**
   * Sent only while the request stays on the first URL's origin (credentials, API keys): the first redirect to
   * another origin drops them for the rest of the request. `headers` win over these.
   */
  originHeaders?: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * Judges each redirect before anything is sent to its target; throws to refuse it (the error is the request's).
   * Unset, every redirect is followed, a 303 (and a 301 or 302 of a POST) continuing as a GET without the body,
   * as browsers do; a 307 or 308 keeps the method and the body.
   */
  onRedirect?: (hop: RedirectHop) => void;
}

/** A redirect about to be followed. */
export interface RedirectHop {
  status: number;
  from: URL;
  to: URL;
  /** Redirects followed before this one. */
  followed: number;
}

export interface FetchedResponse {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** Whether the body was longer than `maxBytes` (and cut there). */
  truncated: boolean;
  redirects: string[];
  /** The address actually connected to. */
  address: string;
}

/** Where a guarded request may connect: which addresses, and which ports of hosts not allowlisted. */
export interface Destinations {
  addresses: AddressPolicy;
  ports: PortPolicy;
}

/**
 * Public hosts on the web ports, plus the operator's exceptions: `allowAddresses` (CIDR ranges or addresses, which
 * may then use any port) and `allowPorts` (for every host). `client` names who connects, in refusals.
 */
export function destinationsFor(client: string, allowAddresses?: readonly string[], allowPorts?: readonly number[]): Destinations {
  return { addresses: new AddressPolicy(allowAddresses, client), ports: new PortPolicy(allowPorts, client) };
}

/** Why `web_fetch` refused a URL or could not fetch it. */
export type WebFetchErrorCode = Extract<CoreToolErrorCode, 'invalid_url' | 'address_refused' | 'fetch_failed' | 'not_text'>;

/** A refusal or failure the model can act on; never a stack trace. */
export class WebFetchError extends CoreToolError {
  declare readonly code: WebFetchErrorCode;

  constructor(code: WebFetchErrorCode, message: string) {
    super(code, message);
    this.name = 'WebFetchError';
  }
}

/** `guardedRequest` as `web_fetch` uses it: a GET that accepts text, HTML and JSON, compressed or not. */
export function guardedGet(url: string, policy: Destinations, limits: FetchLimits): Promise<FetchedResponse> {
  const { userAgent, ...rest } = limits;
  const headers = {
    'user-agent': userAgent,
    accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
  };
  return guardedRequest(url, { method: 'GET', headers }, policy, rest);
}

/**
 * An HTTP request with SSRF defences: the scheme must be http(s); the port must be a web port unless the host's
 * address is allowlisted; every hop's host is resolved by a lookup that checks each address and hands
 * the socket the checked one (no second resolution to race); literal IP hosts are checked too;
 * redirects are followed one hop at a time, each hop judged afresh; the decompressed body is capped
 * while it streams. Proxies from the environment are never used. Any status is returned, a redirect
 * only when it has no `Location`.
 */
export async function guardedRequest(url: string, init: GuardedRequestInit, policy: Destinations, limits: RequestLimits): Promise<FetchedResponse> {
  const redirects: string[] = [];
  let current = parseUrl(url);
  const origin = current.origin;
  let sent: Sent = { method: init.method, headers: { ...init.originHeaders, ...init.headers }, body: init.body };
  for (;;) {
    const response = await requestOnce(current, sent, policy, limits);
    if (response.redirect) {
      const { status, location } = response.redirect;
      const next = redirectTarget(location, current);
      init.onRedirect?.({ status, from: current, to: next, followed: redirects.length });
      if (redirects.length >= limits.maxRedirects)
        throw new WebFetchError('fetch_failed', `more than ${limits.maxRedirects} redirects (last to ${location}); fetch the final URL directly`);
      redirects.push(next.href);
      sent = afterRedirect(sent, status, next.origin === origin ? undefined : init);
      current = next;
      continue;
    }
    return { ...response.result!, redirects };
  }
}

type Sent = { method: string; headers: Record<string, string>; body: string | Uint8Array | undefined };

/** The request sent to a redirect's target: the method and body as browsers change them, without the origin's headers once it left. */
function afterRedirect(sent: Sent, status: number, leftOrigin: GuardedRequestInit | undefined): Sent {
  const toGet = (status === 303 && sent.method !== 'HEAD') || ((status === 301 || status === 302) && sent.method === 'POST');
  const headers = leftOrigin ? { ...leftOrigin.headers } : { ...sent.headers };
  if (toGet) for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
  return toGet ? { method: 'GET', headers, body: undefined } : { method: sent.method, headers, body: sent.body };
}

function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new WebFetchError('fetch_failed', `the server redirected to an invalid URL '${location}'`);
  }
  return parseUrl(next.href);
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebFetchError('invalid_url', `'${text}' is not a valid absolute URL (e.g. https://example.com/page)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError('invalid_url', `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}:`);
  if (url.username || url.password) throw new WebFetchError('invalid_url', 'URLs with credentials (user:password@) are refused');
  return url;
}

type Once = { redirect?: { status: number; location: string }; result?: Omit<FetchedResponse, 'redirects'> };

function requestOnce(url: URL, sent: Sent, { addresses: policy, ports }: Destinations, limits: RequestLimits): Promise<Once> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Off the web ports only allowlisted addresses may be reached: decided before any DNS query when
  // nothing is allowlisted or the host is a literal, else on every address the name resolves to.
  const webPort = ports.allows(PortPolicy.portOf(url));
  const portRefusal = (address: string) => (webPort || policy.isAllowlisted(address) ? undefined : ports.refusal(url));
  if (!webPort && !policy.hasAllowlist) return Promise.reject(new WebFetchError('address_refused', ports.refusal(url)));
  if (net.isIP(host)) {
    const byPort = portRefusal(host);
    if (byPort) return Promise.reject(new WebFetchError('address_refused', byPort));
    const refused = policy.check(host);
    if (refused) return Promise.reject(new WebFetchError('address_refused', `refused ${url.host}: ${refused}`));
  }
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      const byPort = list.map((a) => portRefusal(a.address)).find((r) => r !== undefined);
      if (byPort) return callback(new WebFetchError('address_refused', byPort), '', 0);
      const refused = list.map((a) => policy.check(a.address)).find((r) => r !== undefined);
      // One private address among the answers refuses the host: DNS answers can rotate.
      if (refused) return callback(new WebFetchError('address_refused', `refused ${hostname}: ${refused}`), '', 0);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, [first]);
      else callback(null, first.address, first.family);
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Once>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: sent.method,
        lookup,
        agent: false,
        signal: limits.signal,
        headers: sent.body === undefined ? sent.headers : { ...sent.headers, 'content-length': String(Buffer.byteLength(sent.body)) },
      },
      (response) => {
        const address = response.socket.remoteAddress ?? '';
        // Belt and braces: the socket's peer must pass too (e.g. a lookup bypassed by a literal).
        const refused = address ? policy.check(address) : undefined;
        const byPort = address ? portRefusal(address) : undefined;
        if (refused || byPort) {
          response.destroy();
          return reject(new WebFetchError('address_refused', byPort ?? `refused ${url.host}: ${refused}`));
        }
        const status = response.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status) && response.headers.location) {
          // Its body is not wanted: close the connection rather than drain what may never end.
          response.destroy();
          return resolve({ redirect: { status, location: response.headers.location } });
        }
        readBody(response, limits.maxBytes).then(
          ({ body, truncated }) =>
            resolve({
              result: { url: url.href, status, contentType: String(response.headers['content-type'] ?? ''), body, truncated, address },
            }),
          reject,
        );
      },
    );
    request.on('error', (error: Error & { code?: string }) => {
      if (error instanceof WebFetchError) return reject(error);
      if (error.name === 'AbortError' || limits.signal.aborted)
        return reject(new WebFetchError('fetch_failed', `the request to ${url.host} timed out or was cancelled`));
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof WebFetchError) return reject(cause);
      reject(
        new WebFetchError(
          'fetch_failed',
          `could not fetch ${url.href}: ${error.code === 'ENOTFOUND' ? `the host ${url.hostname} was not found` : error.message}`,
        ),
      );
    });
    request.end(sent.body);
  });
}

/** Decompresses as declared and stops reading at `maxBytes` of decompressed data (zip bombs end there). */
function readBody(response: http.IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (encoding && encoding !== 'identity' && !decoder) {
    response.destroy();
    return Promise.reject(new WebFetchError('fetch_failed', `the server sent an unsupported content encoding '${encoding}'`));
  }
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      response.destroy();
      decoder?.destroy();
      resolve({ body: Buffer.concat(chunks), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        return finish(true);
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('end', () => finish(false));
    stream.on('error', (error: Error) => {
      if (done) return;
      done = true;
      response.destroy();
      reject(new WebFetchError('fetch_failed', `the response body could not be read: ${error.message}`));
    });
    response.on('aborted', () => {
      if (!done) {
        done = true;
        reject(new WebFetchError('fetch_failed', 'the server closed the connection mid-body'));
      }
    });
  });
}
