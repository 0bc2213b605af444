/**
 * The capability that grants the network, as the shell's sandbox names it: where capabilities are granted
 * explicitly, an HTTP tool's call needs it (or `net.connect:<host>` for the endpoint's host alone), and a subprocess
 * tool's program has the network only with it.
 */
export const NETWORK_CAPABILITY = 'net.connect';

/**
 * Why the call may not reach `url`'s host, or undefined when it may: no explicit grant (everything is granted), or a
 * grant of `*`, `net.*`, `net.connect` or `net.connect:<host>` (the host as the URL spells it, `[::1]` or `::1` for
 * IPv6).
 * @example networkRefusal(['fs.read'], new URL('http://api.example.com/x')) // 'the call does not hold net.connect ...'
 */
export function networkRefusal(granted: readonly string[] | undefined, url: URL): string | undefined {
  if (granted === undefined) return undefined;
  const hosts = [url.hostname, url.hostname.replace(/^\[|\]$/g, '')].map((host) => `${NETWORK_CAPABILITY}:${host}`);
  const covers = (grant: string) =>
    grant === '*' || grant === NETWORK_CAPABILITY || hosts.includes(grant) || (grant.endsWith('.*') && NETWORK_CAPABILITY.startsWith(grant.slice(0, -1)));
  if (granted.some(covers)) return undefined;
  return `refused ${url.host}: the call does not hold the ${NETWORK_CAPABILITY} capability (or ${hosts[0]}) that reaching it takes`;
}

/** Whether a call may use the network at all: no explicit grant (everything is granted), or `*`, `net.*` or `net.connect`. */
export function holdsNetwork(granted: readonly string[] | undefined): boolean {
  if (granted === undefined) return true;
  return granted.some((grant) => grant === '*' || grant === NETWORK_CAPABILITY || (grant.endsWith('.*') && NETWORK_CAPABILITY.startsWith(grant.slice(0, -1))));
}
