import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { AddressPolicy } from '../web/address-policy.js';
import type { WebConfig } from '../web/web-config.js';
import { WebFetchTool, renderWebFetch } from './web-fetch.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const ws = tempWorkspace();
let server: http.Server;
let base = '';
const ARTICLE = `<html><head><title>Ocean facts</title><script>alert(1)</script></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>The ocean</h1>${'<p>The ocean covers most of the planet and holds most of its water; it shapes the weather everywhere. </p>'.repeat(6)}
<ul><li>Pacific</li><li>Atlantic</li></ul></article><footer>© ads and more ads</footer></body></html>`;

const LONG = Array.from({ length: 400 }, (_, i) => `paragraph ${i + 1}: ${'wörds '.repeat(i % 13)}`).join('\n');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(ARTICLE);
      case '/long':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end(LONG);
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync('compressed hello'));
      case '/bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x61)));
      case '/binary':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(Buffer.from([0, 1, 2, 3, 0, 255]));
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        return res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/hang':
        return; // never answers
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('no such page');
      default:
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('root');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ws.cleanup();
});

const open = (web: WebConfig = { allowAddresses: ['127.0.0.1'] }) => new WebFetchTool({ ...ws.env, web });

describe('AddressPolicy', () => {
  const policy = new AddressPolicy();
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '198.18.0.1',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::5',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '::127.0.0.1',
    '2001:db8::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(policy.check(address)).toBeDefined();
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(policy.check(address)).toBeUndefined();
  });

  it('lets an allowlist open internal ranges, and rejects a malformed one', () => {
    expect(new AddressPolicy(['10.1.0.0/16']).check('10.1.2.3')).toBeUndefined();
    expect(new AddressPolicy(['10.1.0.0/16']).check('10.2.0.1')).toBeDefined();
    expect(() => new AddressPolicy(['ten.dot'])).toThrow(/not an IP address or CIDR/);
  });
});

describe('web_fetch', () => {
  it('turns an HTML page into Markdown of its main content', async () => {
    const result = await open().webFetch(`${base}/article`);
    expect(result).toMatchObject({ status: 200, contentType: 'text/html', title: 'Ocean facts', truncated: false });
    expect(result.content).toContain('The ocean covers most of the planet');
    expect(result.content).toMatch(/^-\s+Pacific$/m);
    expect(result.content).not.toContain('alert(1)');
  });

  it('returns raw HTML on request, JSON and text as they are, and decompresses', async () => {
    expect((await open().webFetch(`${base}/article`, 'raw')).content).toBe(ARTICLE);
    expect((await open().webFetch(`${base}/json`)).content).toBe('{"ok":true}');
    expect((await open().webFetch(`${base}/gzip`)).content).toBe('compressed hello');
    expect(await open().webFetch(`${base}/missing`)).toMatchObject({ status: 404, content: 'no such page' });
  });

  it('caps the decompressed body (a gzip bomb stops at the cap)', async () => {
    const result = await open({ allowAddresses: ['127.0.0.1'], maxBytes: 64 * 1024 }).webFetch(`${base}/bomb`);
    expect(result.truncated).toBe(true);
    expect(result.totalChars).toBe(64 * 1024);
    expect(renderWebFetch(result).split('\n').at(-1)).toBe('[the body was longer than the size cap and was cut there; the rest cannot be fetched]');
  });

  it('returns at most the output budget and reads on from the offset it gives, never losing text', async () => {
    const whole = LONG.length;
    let text = '';
    let offset = 1;
    for (;;) {
      const page = await withBudget(3_000, () => open().webFetch(`${base}/long`, 'markdown', offset));
      const rendered = renderWebFetch(page);
      expect(modelSize(rendered)).toBeLessThanOrEqual(3_000);
      text += page.content;
      const end = offset + page.content.length - 1;
      if (end >= page.totalChars) break;
      expect(rendered).toContain(`[characters ${offset}–${end} of ${whole}; read on with offset ${end + 1}]`);
      offset = end + 1;
    }
    expect(text).toBe(LONG);
  });

  it('renders where the text came from, its title and the text', async () => {
    expect(
      renderWebFetch({
        url: 'https://example.com/',
        status: 200,
        contentType: 'text/html',
        title: 'Example',
        content: 'Some text.',
        offset: 1,
        totalChars: 10,
        truncated: false,
        redirects: ['https://example.com/'],
      }),
    ).toBe('https://example.com/ (200 text/html, after 1 redirect)\n# Example\n\nSome text.');
  });

  it('refuses binary content', async () => {
    await expect(open().webFetch(`${base}/binary`)).rejects.toThrow(/not text/);
  });

  it.each([
    ['loopback by IP', () => `${base}/`],
    ['loopback by name', () => base.replace('127.0.0.1', 'localhost')],
    ['decimal notation', () => base.replace('127.0.0.1', '2130706433')],
    ['hex notation', () => base.replace('127.0.0.1', '0x7f.0.0.1')],
    ['short notation', () => base.replace('127.0.0.1', '127.1')],
    ['IPv4-mapped IPv6', () => base.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
    ['IPv6 loopback', () => base.replace('127.0.0.1', '[::1]')],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['zero address', () => base.replace('127.0.0.1', '0')],
  ])('refuses internal hosts without an allowlist: %s', async (_label, url) => {
    // The test server's port is opened so that the address policy, not the port policy, is what refuses.
    await expect(open({ allowPorts: [Number(new URL(base).port)] }).webFetch(url())).rejects.toThrow(/only connects to public hosts/);
  });

  it('judges every redirect hop afresh', async () => {
    await expect(open().webFetch(`${base}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest')}`)).rejects.toThrow(/link-local/);
    await expect(open().webFetch(`${base}/redirect?to=${encodeURIComponent('http://10.0.0.1/')}`)).rejects.toThrow(/private/);
    await expect(open().webFetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)).rejects.toThrow(/only http and https/);
    const followed = await open().webFetch(`${base}/redirect?to=/json`);
    expect(followed).toMatchObject({ content: '{"ok":true}', redirects: [`${base}/json`] });
    await expect(open().webFetch(`${base}/loop`)).rejects.toThrow(/more than 5 redirects/);
  });

  it('refuses other schemes, credentials and malformed URLs', async () => {
    await expect(open().webFetch('ftp://example.com/x')).rejects.toThrow(/only http and https/);
    await expect(open().webFetch('http://user:pw@example.com/')).rejects.toThrow(/credentials/);
    await expect(open().webFetch('not a url')).rejects.toThrow(/not a valid absolute URL/);
  });

  it('gives up at the time limit', async () => {
    const elapsed = stopwatch();
    await expect(open({ allowAddresses: ['127.0.0.1'], timeoutMs: 300 }).webFetch(`${base}/hang`)).rejects.toThrow(/timed out/);
    expect(elapsed()).toBeLessThan(3000);
  });
});

describe('web_fetch ports', () => {
  afterEach(() => vi.restoreAllMocks());
  const port = () => new URL(base).port;

  // Hosts that are not allowlisted, each port spelled several ways, with and without userinfo:
  // all refused before any DNS query or connection (so no packet leaves this machine).
  const hostile = ['example.com', '93.184.216.34', '[2606:4700:4700::1111]', '[::ffff:93.184.216.34]', '127.0.0.1', 'localhost']
    .flatMap((host) => [':22', ':0022', ':6379', ':006379', ':25', ':8080', ':0'].map((p) => `http://${host}${p}/`))
    .concat(['http://a@b:22/', 'http://a:b@example.com:6379/', 'https://example.com:22/', 'https://[::1]:0022/x']);

  it.for(hostile)('refuses %s without resolving or connecting', async (url) => {
    const lookup = vi.spyOn(dns, 'lookup');
    await expect(open({}).webFetch(url)).rejects.toThrow(/not a web port|credentials/);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('judges the port of every redirect hop', async () => {
    // Literal hosts: with an allowlist, a name off the web ports is resolved to see whether it is allowlisted.
    const lookup = vi.spyOn(dns, 'lookup');
    for (const target of [
      'http://93.184.216.34:22/',
      'http://93.184.216.34:0006379/',
      'https://[2606:4700:4700::1111]:25/',
      'http://127.0.0.2:6379/',
      '//[::ffff:127.0.0.2]:0022/',
    ]) {
      await expect(open().webFetch(`${base}/redirect?to=${encodeURIComponent(target)}`)).rejects.toThrow(/port \d+ is not a web port/);
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it('judges a name by every address it resolves to when an allowlist exists', async () => {
    // localhost resolves from the hosts file; its addresses are not in this allowlist.
    await expect(open({ allowAddresses: ['10.9.0.0/16'] }).webFetch('http://localhost:22/')).rejects.toThrow(/port 22 is not a web port/);
  });

  it('lets allowlisted hosts use any port, and allowPorts open a port without opening an address', async () => {
    expect((await open({ allowAddresses: ['127.0.0.1'] }).webFetch(`${base}/json`)).content).toBe('{"ok":true}');
    await expect(open({ allowPorts: [Number(port())] }).webFetch(`${base}/json`)).rejects.toThrow(/loopback address/);
    expect(() => open({ allowPorts: [70000] })).toThrow(/not a port number/);
  });
});
