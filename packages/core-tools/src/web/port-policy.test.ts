import { describe, expect, it } from 'vitest';
import { PortPolicy } from './port-policy.js';

const HOSTS = ['example.com', '93.184.216.34', '[2606:4700:4700::1111]', '[::ffff:93.184.216.34]', 'xn--bcher-kva.example'];

/** Every spelling of a port the URL parser accepts: plain, zero-padded, and the scheme's default written out. */
function spellings(port: number): string[] {
  return [`:${port}`, `:${String(port).padStart(4, '0')}`, `:${String(port).padStart(6, '0')}`];
}

const urls = (ports: number[], schemes = ['http', 'https']) =>
  schemes.flatMap((scheme) => HOSTS.flatMap((host) => ports.flatMap((port) => spellings(port).map((spelling) => `${scheme}://${host}${spelling}/path?q=1`))));

describe(PortPolicy, () => {
  const policy = new PortPolicy();

  it.for(urls([22, 25, 6379, 11211, 3306, 5432, 8080, 1, 0, 65535]))('refuses %s', (url) => {
    const parsed = new URL(url);
    expect(policy.allows(PortPolicy.portOf(parsed))).toBe(false);
    expect(policy.refusal(parsed)).toMatch(/^refused .*: port \d+ is not a web port; web_fetch connects only to ports 80, 443/);
  });

  it.for(urls([80, 443]))('allows the web port of %s', (url) => {
    expect(policy.allows(PortPolicy.portOf(new URL(url)))).toBe(true);
  });

  it.for([
    ['http://example.com/', 80],
    ['https://example.com/', 443],
    ['http://example.com:/', 80],
    ['https://example.com:443/', 443],
    ['http://example.com:0022/', 22],
    ['http://[::1]:6379/', 6379],
    ['http://a@b:22/', 22],
    ['http://a:b@c:0006379/', 6379],
    ['http://example.com:22@evil.example/', 80],
    ['HTTP://EXAMPLE.COM:00080/', 80],
    ['https://example.com:80/', 80],
  ] as const)('reads the port of %s as %i', ([url, port]) => {
    expect(PortPolicy.portOf(new URL(url))).toBe(port);
  });

  it('adds the ports an operator allows, and rejects entries that are not ports', () => {
    const wider = new PortPolicy([8080, 8443]);
    expect(wider.allows(8080)).toBe(true);
    expect(wider.allows(22)).toBe(false);
    expect(wider.refusal(new URL('http://example.com:22/'))).toContain('ports 80, 443, 8080, 8443');
    for (const bad of [0, 65536, 1.5, Number.NaN, -80]) expect(() => new PortPolicy([bad])).toThrow(/not a port number/);
  });
});
