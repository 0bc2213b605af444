import ipaddr from 'ipaddr.js';
import { CoreToolError } from '../core-tool-error.js';

/**
 * Which addresses `web_fetch` may connect to. Only public unicast addresses pass: loopback, private
 * (RFC 1918, unique-local), link-local (and so cloud metadata at 169.254.169.254), CGNAT (and so
 * 100.100.100.200), multicast, broadcast, unspecified, documentation, benchmarking and reserved
 * ranges are refused. IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo,
 * IPv4-compatible) are judged by the address they embed; IPv6 outside 2000::/3 is refused.
 * `allow` lists exceptions (CIDR ranges or single addresses) for deployments that need internal hosts.
 */
export class AddressPolicy {
  private readonly allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  /** `client` names who connects, in refusals (`web_fetch`, an HTTP tool's name). */
  constructor(
    allow: readonly string[] = [],
    private readonly client = 'web_fetch',
  ) {
    this.allowed = allow.map((entry) => {
      try {
        return entry.includes('/')
          ? ipaddr.parseCIDR(entry)
          : (() => {
              const a = ipaddr.parse(entry);
              return [a, a.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
            })();
      } catch {
        throw new CoreToolError('invalid_config', `'${entry}' in the web allowlist is not an IP address or CIDR range (e.g. 10.0.0.0/8)`);
      }
    });
  }

  /** Whether the operator listed any exceptions (only then can a host be explicitly allowed). */
  get hasAllowlist(): boolean {
    return this.allowed.length > 0;
  }

  /** undefined when the address may be connected to, else why not. */
  check(address: string): string | undefined {
    const parsed = parse(address);
    if (!parsed) return `'${address}' is not an IP address`;
    if (this.listed(parsed)) return undefined;
    const verdict = judge(parsed);
    return verdict === undefined ? undefined : `${address} is a ${verdict} address; ${this.client} only connects to public hosts`;
  }

  /** Whether the operator allowlisted this address explicitly (such hosts may use any port). */
  isAllowlisted(address: string): boolean {
    const parsed = parse(address);
    return parsed !== undefined && this.listed(parsed);
  }

  private listed(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  }
}

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
}

const EXTRA_V4: [ipaddr.IPv4, number][] = [
  ['198.18.0.0', 15],
  ['192.0.0.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.175.48.0', 24],
  ['0.0.0.0', 8],
].map(([a, bits]) => [ipaddr.IPv4.parse(a as string), bits as number]);

function judge(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    const range = v4.range();
    if (range !== 'unicast') return describe(range);
    if (EXTRA_V4.some(([net, bits]) => v4.match(net, bits))) return 'reserved';
    return undefined;
  }
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return judge(embedded);
  const range = v6.range();
  if (range !== 'unicast') return describe(range);
  // Only global unicast (2000::/3) is public; 2001:db8::/32 is documentation.
  if ((v6.parts[0]! & 0xe000) !== 0x2000) return 'reserved';
  return undefined;
}

/** The IPv4 address inside mapped, compatible, NAT64, 6to4 and Teredo IPv6 forms. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const range = v6.range();
  if (range === 'rfc6145' || range === 'rfc6052') return fromWords(p[6]!, p[7]!);
  if (p.slice(0, 6).every((w) => w === 0) && (p[6] !== 0 || p[7]! > 1)) return fromWords(p[6]!, p[7]!); // ::a.b.c.d (deprecated compatible form)
  if (range === '6to4') return fromWords(p[1]!, p[2]!);
  if (range === 'teredo') return fromWords(p[6]! ^ 0xffff, p[7]! ^ 0xffff);
  return undefined;
}

function describe(range: string): string {
  return (
    (
      {
        carrierGradeNat: 'carrier-grade NAT',
        linkLocal: 'link-local (cloud metadata lives here)',
        uniqueLocal: 'unique-local (private)',
        unspecified: 'unspecified',
        private: 'private',
        loopback: 'loopback',
        multicast: 'multicast',
        broadcast: 'broadcast',
        reserved: 'reserved',
      } as Record<string, string>
    )[range] ?? range
  );
}
