import { grantsNetwork, NETWORK_CAPABILITY } from '@toolwright/core-tools';

/**
 * Why the call may not reach `url`'s host, or undefined when it may: no explicit grant (everything is granted), or a
 * grant that covers the network (`grantsNetwork` of the core tools: `*`, `net.*`, `net.connect`) or this host alone
 * (`net.connect:<host>`, the host as the URL spells it, `[::1]` or `::1` for IPv6).
 * @example networkRefusal(['fs.read'], new URL('http://api.example.com/x')) // 'the call does not hold net.connect ...'
 */
export function networkRefusal(granted: readonly string[] | undefined, url: URL): string | undefined {
  if (granted === undefined) return undefined;
  const hosts = [url.hostname, url.hostname.replace(/^\[|\]$/g, '')];
  if (grantsNetwork(granted, hosts)) return undefined;
  return `refused ${url.host}: the call does not hold the ${NETWORK_CAPABILITY} capability (or ${NETWORK_CAPABILITY}:${hosts[0]}) that reaching it takes`;
}

/** Whether a call may use the network at all: no explicit grant (everything is granted), or one that covers it. */
export function holdsNetwork(granted: readonly string[] | undefined): boolean {
  return granted === undefined || grantsNetwork(granted);
}
