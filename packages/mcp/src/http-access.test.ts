import { describe, expect, it } from 'vitest';
import { HttpAccess, isLoopbackAddress } from './http-access.js';

const PORT = 4321;
const local = new HttpAccess({ bindHost: '127.0.0.1' });

describe(HttpAccess, () => {
  it.for(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST', 'Localhost'].map((name) => `${name}:${PORT}`))('accepts the loopback Host %s', (host) => {
    expect(local.check({ host }, PORT)).toBeUndefined();
  });

  it.for([
    `evil.example.com:${PORT}`,
    'evil.example.com',
    `localhost:${PORT + 1}`,
    'localhost',
    '127.0.0.1',
    `127.0.0.1:0${PORT}0`,
    `127.0.0.2:${PORT}`,
    `0.0.0.0:${PORT}`,
    `[::2]:${PORT}`,
    `localhost.:${PORT}`,
    `sub.localhost:${PORT}`,
    `localhost.evil.com:${PORT}`,
    `evil.com@127.0.0.1:${PORT}`,
    `127.0.0.1:${PORT}/x`,
    `127.0.0.1:${PORT}:${PORT}`,
    `127.0.0.1:99999`,
    `[::1`,
    '',
    ' ',
    `localhost:${PORT}, evil.com`,
    `2130706433:${PORT}`,
    `0x7f000001:${PORT}`,
    `[::ffff:127.0.0.1]:${PORT}`,
    `127.0.0.1\u0000:${PORT}`,
  ])('refuses the Host %j', (host) => {
    expect(local.check({ host }, PORT)).toMatch(/Host/);
  });

  it('refuses a request without Host', () => {
    expect(local.check({}, PORT)).toMatch(/no Host header/);
  });

  it.for([undefined, 'http://localhost:3000', 'http://127.0.0.1:8080', 'https://[::1]:9', `http://localhost:${PORT}`, 'http://LOCALHOST'])(
    'accepts the Origin %s',
    (origin) => {
      expect(local.check({ host: `localhost:${PORT}`, ...(origin === undefined ? {} : { origin }) }, PORT)).toBeUndefined();
    },
  );

  it.for([
    'http://evil.example.com',
    `http://evil.example.com:${PORT}`,
    'null',
    'file://',
    'chrome-extension://abcdef',
    'http://localhost.evil.com',
    'http://127.0.0.1.nip.io',
    'https://localhost@evil.com',
    'http://[::2]',
    '',
    'http://localhost/path',
    'ws://localhost',
  ])('refuses the Origin %j', (origin) => {
    expect(local.check({ host: `localhost:${PORT}`, origin }, PORT)).toMatch(/origin/);
  });

  it('accepts allowlisted hosts (any port, or the one named) and origins', () => {
    const access = new HttpAccess({
      bindHost: '127.0.0.1',
      allowedHosts: ['mcp.example.com', 'proxy.internal:8443', '[2001:db8::1]:443'],
      allowedOrigins: ['https://app.example.com', 'http://tool.local:8080/'],
    });
    expect(access.check({ host: 'mcp.example.com' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'MCP.example.com:443' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'proxy.internal:8443' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'proxy.internal:8444' }, PORT)).toMatch(/port 8444/);
    expect(access.check({ host: '[2001:db8::1]:443' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'mcp.example.com', origin: 'https://app.example.com' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'mcp.example.com', origin: 'http://tool.local:8080' }, PORT)).toBeUndefined();
    expect(access.check({ host: 'mcp.example.com', origin: 'http://app.example.com' }, PORT)).toMatch(/origin/);
    expect(access.check({ host: 'other.example.com' }, PORT)).toMatch(/--allow-host/);
  });

  it('accepts any Host or Origin only when told so with *', () => {
    const open = new HttpAccess({ bindHost: '127.0.0.1', allowedHosts: ['*'], allowedOrigins: ['*'] });
    expect(open.check({ host: 'anything.example', origin: 'https://anything.example' }, PORT)).toBeUndefined();
  });

  it('judges loopback names by the port the server really listens on', () => {
    expect(local.check({ host: 'localhost:5000' }, 5000)).toBeUndefined();
    expect(local.check({ host: `localhost:${PORT}` }, 5000)).toMatch(/this server listens on 5000/);
  });

  it('accepts the specific address it is bound to, but never a wildcard one', () => {
    expect(new HttpAccess({ bindHost: '192.168.1.5' }).check({ host: `192.168.1.5:${PORT}` }, PORT)).toBeUndefined();
    expect(new HttpAccess({ bindHost: '0.0.0.0' }).check({ host: `0.0.0.0:${PORT}` }, PORT)).toMatch(/Host/);
    expect(new HttpAccess({ bindHost: '0.0.0.0' }).check({ host: `127.0.0.1:${PORT}` }, PORT)).toBeUndefined();
  });

  it('rejects allowlist entries that are not hosts or origins', () => {
    expect(() => new HttpAccess({ bindHost: '127.0.0.1', allowedHosts: ['http://x.com'] })).toThrow(/not a host name/);
    expect(() => new HttpAccess({ bindHost: '127.0.0.1', allowedOrigins: ['app.example.com'] })).toThrow(/not an origin/);
    expect(() => new HttpAccess({ bindHost: '127.0.0.1', allowedOrigins: ['https://x.com/path'] })).toThrow(/not an origin/);
  });
});

describe(isLoopbackAddress, () => {
  it.for(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackAddress(host)).toBe(true);
  });

  it.for(['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.com', 'localhost.example.com', '', '128.0.0.1'])('%j is not loopback', (host) => {
    expect(isLoopbackAddress(host)).toBe(false);
  });
});
