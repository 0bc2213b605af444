import net from 'node:net';
import { HttpServeError } from './http-serve-error.js';

/** The names a loopback server answers to by default, in Host and Origin headers. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface AccessOptions {
  /** The address the server is bound to; a specific non-loopback address is a valid Host too. */
  bindHost: string;
  /** Extra Host values: `name` (any port), `name:port`, `[v6]:port`, or `*` for any Host. */
  allowedHosts?: readonly string[];
  /** Extra origins (`https://app.example.com`), or `*` for any; absent and loopback origins always pass. */
  allowedOrigins?: readonly string[];
}

/**
 * Decides which browsers' requests reach the endpoint. A DNS-rebinding page runs in the user's browser
 * under its own name (`evil.example`) re-pointed at 127.0.0.1: its requests carry `Host: evil.example`,
 * and a cross-site page's carry its `Origin`. So the Host must be one of the server's own names with
 * its port, and an Origin, when present, must be a loopback or allowlisted origin.
 */
export class HttpAccess {
  private readonly anyHost: boolean;
  private readonly anyOrigin: boolean;
  /** `name` -> the allowed port: a number, the server's own, or any. */
  private readonly hosts = new Map<string, number | 'own' | 'any'>();
  private readonly origins = new Set<string>();

  constructor(options: AccessOptions) {
    const hosts = options.allowedHosts ?? [];
    const origins = options.allowedOrigins ?? [];
    this.anyHost = hosts.includes('*');
    this.anyOrigin = origins.includes('*');
    for (const name of LOOPBACK_NAMES) this.hosts.set(name, 'own');
    if (!isLoopbackAddress(options.bindHost) && !isWildcardAddress(options.bindHost)) this.hosts.set(hostName(options.bindHost), 'own');
    for (const entry of hosts.filter((h) => h !== '*')) {
      const parsed = parseHost(entry);
      if (!parsed) throw new HttpServeError(`'${entry}' is not a host name for the Host allowlist (e.g. mcp.example.com or mcp.example.com:8443)`);
      this.hosts.set(parsed.name, parsed.port ?? 'any');
    }
    for (const entry of origins.filter((o) => o !== '*')) {
      const origin = originOf(entry);
      if (!origin) throw new HttpServeError(`'${entry}' is not an origin for the Origin allowlist (e.g. https://app.example.com)`);
      this.origins.add(origin);
    }
  }

  /** undefined when the request may go on, else why it is refused (answered with 403). `port` is the one the server listens on. */
  check(headers: { host?: string | undefined; origin?: string | string[] | undefined }, port: number): string | undefined {
    if (!this.anyHost) {
      const parsed = headers.host === undefined ? undefined : parseHost(headers.host);
      if (!parsed) return headers.host === undefined ? 'the request has no Host header' : 'the Host header is malformed';
      const named = parsed.port ?? 80;
      const allowed = this.hosts.get(parsed.name);
      if (allowed === undefined)
        return `the Host '${parsed.name}' is not one this server answers to (a DNS-rebinding page would look like this); allow it with --allow-host`;
      const expected = allowed === 'own' ? port : allowed;
      if (expected !== 'any' && expected !== named)
        return `the Host names port ${named}, but ${allowed === 'own' ? `this server listens on ${port}` : `only port ${expected} is allowed for ${parsed.name}`}`;
    }
    const origin = headers.origin;
    if (origin === undefined || this.anyOrigin) return undefined;
    const normalised = typeof origin === 'string' ? originOf(origin) : undefined;
    if (normalised && (isLoopbackOrigin(normalised) || this.origins.has(normalised))) return undefined;
    return `requests from the web origin '${String(origin).slice(0, 200)}' are refused; allow it with --allow-origin`;
  }
}

/** Whether listening on this address keeps the server to this machine. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (net.isIPv6(bare)) return bare === '::1' || /^::ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}

function isWildcardAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === '0.0.0.0' || bare === '::' || bare === '';
}

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/;

/** `name[:port]` as sent in a Host header, lowercased; undefined unless it is exactly that. */
function parseHost(text: string): { name: string; port: number | undefined } | undefined {
  const match = HOST_HEADER.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const name = match[1]!;
  if (name.startsWith('[') && !net.isIPv6(name.slice(1, -1))) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { name, port };
}

function hostName(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return net.isIPv6(bare) ? `[${bare}]` : bare;
}

/** `scheme://host[:port]` of an http(s) origin, as the URL parser normalises it; undefined otherwise (`null`, `file:`, junk). */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_NAMES.includes(new URL(origin).hostname);
}
