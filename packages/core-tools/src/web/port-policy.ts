import { CoreToolError } from '../core-tool-error.js';

/** The ports `web_fetch` connects to on any public host. */
export const WEB_PORTS: readonly number[] = [80, 443];

/**
 * Which ports `web_fetch` may connect to. Only the web's own ports pass by default: a URL such as
 * `http://example.com:22/` or `:6379` would otherwise make the host speak HTTP to SSH or Redis
 * (a cross-protocol request). `allow` adds ports for every host; hosts whose address the operator
 * allowlisted (`web.allowAddresses`) may use any port, which the caller decides.
 */
export class PortPolicy {
  private readonly allowed: ReadonlySet<number>;

  /** `client` names who connects, in refusals (`web_fetch`, an HTTP tool's name). */
  constructor(
    allow: readonly number[] = [],
    private readonly client = 'web_fetch',
  ) {
    for (const port of allow) {
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new CoreToolError('invalid_config', `'${String(port)}' in web.allowPorts is not a port number (1-65535)`);
    }
    this.allowed = new Set([...WEB_PORTS, ...allow]);
  }

  /** The port a URL connects to: its own, else its scheme's default (the URL parser drops `:80` on http). */
  static portOf(url: URL): number {
    if (url.port !== '') return Number(url.port);
    return url.protocol === 'https:' ? 443 : 80;
  }

  allows(port: number): boolean {
    return this.allowed.has(port);
  }

  /** Why a connection to this port is refused, worded for the model. */
  refusal(url: URL): string {
    const ports = [...this.allowed].sort((a, b) => a - b).join(', ');
    return `refused ${url.host}: port ${PortPolicy.portOf(url)} is not a web port; ${this.client} connects only to ports ${ports} of public hosts`;
  }
}
