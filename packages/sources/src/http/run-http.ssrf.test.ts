import dns from 'node:dns';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runHttp } from './run-http.js';
import { json, localEndpoint, type Handler, type LocalEndpoint } from './test-support/local-endpoint.js';
import { httpRequest } from './test-support/http-request.js';

const opened: LocalEndpoint[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((endpoint) => endpoint.close()));
});

async function endpoint(handler: Handler, host?: string): Promise<LocalEndpoint> {
  const server = await localEndpoint(handler, host);
  opened.push(server);
  return server;
}

const answers: Handler = (request, response) => json(response, { echoed: request.body });
const redirectTo =
  (status: number, location: () => string): Handler =>
  (_request, response) => {
    response.writeHead(status, { location: location() });
    response.end();
  };

describe('runHttp: where it may connect', () => {
  it('refuses a loopback endpoint without allowAddresses (address_refused) and never connects', async () => {
    const server = await endpoint(answers);
    // Off the web ports: refused by port before anything else.
    await expect(runHttp(httpRequest(server.url('/'), {}))).rejects.toMatchObject({
      code: 'address_refused',
      message: expect.stringMatching(/port \d+ is not a web port; remote_tool connects only to ports 80, 443 .*allowAddresses/),
    });
    // Its port opened, the address itself is refused.
    await expect(runHttp(httpRequest(server.url('/'), { allowPorts: [server.port] }))).rejects.toMatchObject({
      code: 'address_refused',
      message: expect.stringContaining('127.0.0.1 is a loopback address; remote_tool only connects to public hosts'),
    });
    // Allowing another address does not allow this one.
    await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.2'] }))).rejects.toMatchObject({ code: 'address_refused' });
    expect(server.connections).toBe(0);
  });

  it.for([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
  ])('refuses the metadata address %s without resolving or connecting', async (url) => {
    const lookup = vi.spyOn(dns, 'lookup');
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    await expect(runHttp(httpRequest(url, {}))).rejects.toMatchObject({
      code: 'address_refused',
      message: expect.stringMatching(/(link-local|unique-local|carrier-grade NAT)/),
    });
    expect(lookup).not.toHaveBeenCalled();
    expect(connect).not.toHaveBeenCalled();
  });

  it('judges a redirect target afresh: a 307 to a loopback address not allowed is refused before connecting', async () => {
    const elsewhere = await endpoint(answers, '127.0.0.2');
    const ipv6 = await endpoint(answers, '::1');
    for (const target of [elsewhere, ipv6]) {
      const server = await endpoint(redirectTo(307, () => target.url('/x')));
      await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }))).rejects.toMatchObject({ code: 'address_refused' });
      await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'], allowPorts: [target.port] }))).rejects.toMatchObject({
        code: 'address_refused',
        message: expect.stringMatching(/(127\.0\.0\.2|::1) is a loopback address/),
      });
      expect(server.requests).toHaveLength(2);
    }
    expect(elsewhere.connections + ipv6.connections).toBe(0);
  });

  it('follows 307 and 308 with the POST and its body, keeping the tool headers on the origin and dropping them elsewhere', async () => {
    const other = await endpoint(answers); // another port: another origin
    const server = await endpoint((request, response) => {
      if (request.path === '/old') return redirectTo(308, () => '/moved')(request, response);
      if (request.path === '/moved') return redirectTo(307, () => other.url('/final'))(request, response);
      response.writeHead(500).end();
    });
    const result = await runHttp(httpRequest(server.url('/old'), { allowAddresses: ['127.0.0.1'], headers: { 'x-api-key': 'secret' } }, { input: { n: 7 } }));
    expect(result).toEqual({ echoed: '{"n":7}' });
    expect(server.requests.map((r) => [r.method, r.path, r.body, r.headers['x-api-key']])).toEqual([
      ['POST', '/old', '{"n":7}', 'secret'],
      ['POST', '/moved', '{"n":7}', 'secret'],
    ]);
    const [final] = other.requests;
    expect(final).toMatchObject({ method: 'POST', path: '/final', body: '{"n":7}' });
    expect(final!.headers['x-api-key']).toBeUndefined();
    expect(final!.headers['content-type']).toBe('application/json');
  });

  it.for([301, 302, 303])('refuses a %i redirect, which would turn the call into a GET (http_error), sending nothing to its target', async (status) => {
    const target = await endpoint(answers);
    const server = await endpoint(redirectTo(status, () => target.url('/get-me')));
    await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }))).rejects.toMatchObject({
      code: 'http_error',
      message: expect.stringContaining(`redirected the call with HTTP ${status} to ${target.url('/get-me')}`),
    });
    expect(target.connections).toBe(0);
  });

  it('follows at most 5 redirects (http_error)', async () => {
    const server = await endpoint(redirectTo(307, () => '/again'));
    await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }))).rejects.toMatchObject({
      code: 'http_error',
      message: expect.stringContaining('more than 5 times'),
    });
    expect(server.requests).toHaveLength(6);
  });

  it('refuses a redirect to another scheme (http_error)', async () => {
    const server = await endpoint(redirectTo(307, () => 'file:///etc/passwd'));
    await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }))).rejects.toMatchObject({
      code: 'http_error',
      message: expect.stringContaining('only http and https'),
    });
  });
});

describe('runHttp: the network capability', () => {
  it.for([[['fs.read']], [['net.fetch']], [[]], [['net.connect:127.0.0.2']]])(
    'refuses a call granted %j (address_refused) before connecting',
    async ([granted]) => {
      const server = await endpoint(answers);
      await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }, { capabilities: granted }))).rejects.toMatchObject({
        code: 'address_refused',
        message: expect.stringContaining('does not hold the net.connect capability (or net.connect:127.0.0.1)'),
      });
      expect(server.connections).toBe(0);
    },
  );

  it.for([[['net.connect']], [['net.connect:127.0.0.1']], [['net.*']], [['*']]])('lets a call granted %j reach the endpoint', async ([granted]) => {
    const server = await endpoint(answers);
    await expect(runHttp(httpRequest(server.url('/'), { allowAddresses: ['127.0.0.1'] }, { capabilities: granted }))).resolves.toEqual({ echoed: '{}' });
  });

  it('judges each redirect by the grant too: a grant for one host does not follow a redirect to another', async () => {
    const other = await endpoint(answers, '127.0.0.2');
    const server = await endpoint(redirectTo(307, () => other.url('/')));
    const call = () => httpRequest(server.url('/'), { allowAddresses: ['127.0.0.0/8'] }, { capabilities: ['net.connect:127.0.0.1'] });
    await expect(runHttp(call())).rejects.toMatchObject({ code: 'address_refused', message: expect.stringContaining('net.connect:127.0.0.2') });
    expect(other.connections).toBe(0);
  });
});
