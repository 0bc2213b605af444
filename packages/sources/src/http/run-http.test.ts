import { afterEach, describe, expect, it } from 'vitest';
import { SourceError } from '../source-error.js';
import type { HttpToolOptions } from '../source-options.js';
import { runHttp } from './run-http.js';
import { json, localEndpoint, type Handler, type LocalEndpoint } from './test-support/local-endpoint.js';
import { httpRequest } from './test-support/http-request.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const LOCAL = { allowAddresses: ['127.0.0.1'] };
const opened: LocalEndpoint[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((endpoint) => endpoint.close()));
});

async function endpoint(handler: Handler): Promise<LocalEndpoint> {
  const server = await localEndpoint(handler);
  opened.push(server);
  return server;
}

/** Streams bytes until the client goes away. */
const endless: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', pump);
  };
  response.write('[');
  pump();
};

describe(runHttp, () => {
  it('POSTs the arguments as JSON and resolves to the JSON the endpoint answers', async () => {
    const server = await endpoint((request, response) => json(response, { got: JSON.parse(request.body) as unknown, n: 1.5 }));
    const result = await runHttp(httpRequest(server.url('/convert?x=1'), LOCAL, { input: { value: 20, from: 'C', nested: { a: [1, null] } } }));
    expect(result).toEqual({ got: { value: 20, from: 'C', nested: { a: [1, null] } }, n: 1.5 });
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/convert?x=1' });
    expect(received!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': String(received!.body.length),
    });
  });

  it('sends the tool headers, the protocol headers winning over them', async () => {
    const server = await endpoint((_request, response) => json(response, true));
    const headers = { 'X-Api-Key': 'secret', 'Content-Type': 'text/plain', 'User-Agent': 'mine/1' };
    await expect(runHttp(httpRequest(server.url('/'), { ...LOCAL, headers }))).resolves.toBe(true);
    expect(server.requests[0]!.headers).toMatchObject({ 'x-api-key': 'secret', 'content-type': 'application/json', 'user-agent': 'mine/1' });
  });

  it.for([
    [204, '', null],
    [200, 'null', null],
    [201, '\ufeff[1,"two"]', [1, 'two']],
    [200, ' "text" ', 'text'],
  ] as const)('answers %i %j as %j', async ([status, body, expected]) => {
    const server = await endpoint((_request, response) => {
      response.writeHead(status);
      response.end(body);
    });
    await expect(runHttp(httpRequest(server.url('/'), LOCAL))).resolves.toEqual(expected);
  });

  it.for([
    [404, 'text/plain', 'no such\u0007 route\u202e here', /HTTP 404 Not Found: no such route here$/],
    [500, 'application/json', '{"error":"the database is down"}', /HTTP 500 Internal Server Error: the database is down$/],
    [422, 'application/json', '{"error":{"message":"value must be a number"}}', /HTTP 422 Unprocessable Entity: value must be a number$/],
    [503, 'application/json', '{"detail":"try later"}', /HTTP 503 Service Unavailable: try later$/],
    [400, 'text/plain', `${'x'.repeat(500)}`, /HTTP 400 Bad Request: x{200}…$/],
    [502, 'text/plain', '', /HTTP 502 Bad Gateway$/],
    [304, 'text/plain', '', /HTTP 304 Not Modified$/],
  ] as const)('turns HTTP %i (%s) into http_error naming the status and the reason', async ([status, type, body, message]) => {
    const server = await endpoint((_request, response) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    });
    const error = await runHttp(httpRequest(server.url('/'), LOCAL)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ code: 'http_error', message: expect.stringMatching(message) });
    expect((error as Error).message).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it.for([
    ['HTML', 'text/html', '<html><body>Welcome</body></html>', /not JSON \(text\/html: '<html><body>Welcome<\/body><\/html>'\)/],
    ['truncated JSON', 'application/json', '{"value": 1', /not JSON/],
    ['an empty 200', 'application/json', '', /empty body/],
    ['invalid UTF-8', 'application/json', Buffer.from([0x22, 0xff, 0x22]), /not UTF-8/],
  ] as const)('turns a 2xx body that is %s into invalid_output', async ([, type, body, message]) => {
    const server = await endpoint((_request, response) => {
      response.writeHead(200, { 'content-type': type });
      response.end(body);
    });
    await expect(runHttp(httpRequest(server.url('/'), LOCAL))).rejects.toMatchObject({ code: 'invalid_output', message: expect.stringMatching(message) });
  });

  it('stops reading a body past maxResponseBytes (resource_exhausted, output) and closes the connection', async () => {
    const server = await endpoint(endless);
    const elapsed = stopwatch();
    await expect(runHttp(httpRequest(server.url('/'), { ...LOCAL, maxResponseBytes: 256 * 1024 }))).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'output',
      message: expect.stringContaining('262144-byte response cap'),
    });
    await server.allClosed();
    expect(elapsed()).toBeLessThan(5_000);
  });

  it('takes a body of exactly maxResponseBytes', async () => {
    const body = JSON.stringify('a'.repeat(998));
    const server = await endpoint((_request, response) => {
      response.writeHead(200);
      response.end(body);
    });
    await expect(runHttp(httpRequest(server.url('/'), { ...LOCAL, maxResponseBytes: 1000 }))).resolves.toHaveLength(998);
    await expect(runHttp(httpRequest(server.url('/'), { ...LOCAL, maxResponseBytes: 999 }))).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'output',
    });
  });

  it.for([
    ['never answers', () => {}],
    ['answers the headers and then nothing', (_request, response) => response.writeHead(200).flushHeaders()],
  ] as [string, Handler][])('ends at the deadline when the endpoint %s (resource_exhausted, time), closing the connection', async ([, handler]) => {
    const server = await endpoint(handler);
    const elapsed = stopwatch();
    await expect(runHttp(httpRequest(server.url('/'), LOCAL, { signal: AbortSignal.timeout(300), timeoutMs: 300 }))).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'time',
      message: expect.stringContaining('300 ms'),
    });
    expect(elapsed()).toBeLessThan(3_000);
    expect(server.connections).toBe(1);
    await server.allClosed();
  });

  it('stops when the call is cancelled (cancelled), closing the connection', async () => {
    const controller = new AbortController();
    const server = await endpoint(() => controller.abort(new Error('the user pressed stop')));
    await expect(runHttp(httpRequest(server.url('/'), LOCAL, { signal: controller.signal }))).rejects.toMatchObject({ code: 'cancelled' });
    await server.allClosed();
    expect(server.requests).toHaveLength(1);
  });

  it('does not start a call whose signal has already aborted', async () => {
    const server = await endpoint((_request, response) => json(response, 1));
    await expect(runHttp(httpRequest(server.url('/'), LOCAL, { signal: AbortSignal.abort() }))).rejects.toMatchObject({ code: 'cancelled' });
    expect(server.connections).toBe(0);
  });

  it('says an endpoint that cannot be reached failed (source_failed)', async () => {
    const server = await endpoint(() => {});
    const url = server.url('/');
    await server.close();
    opened.length = 0;
    await expect(runHttp(httpRequest(url, LOCAL))).rejects.toMatchObject({ code: 'source_failed', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('says an endpoint that breaks off mid-body failed (source_failed)', async () => {
    const server = await endpoint((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"a":');
      setTimeout(() => response.destroy(), 20);
    });
    await expect(runHttp(httpRequest(server.url('/'), LOCAL))).rejects.toMatchObject({ code: 'source_failed' });
  });

  it.for([
    ['not a URL', 'convert', {}, /not an absolute URL/],
    ['another scheme', 'ftp://127.0.0.1/x', {}, /must be http or https, not ftp:/],
    ['credentials in the URL', 'http://user:pw@127.0.0.1/x', {}, /credentials/],
    ['a malformed allowAddresses entry', 'http://127.0.0.1/', { allowAddresses: ['localhost'] }, /'localhost' in allowAddresses/],
    ['a port out of range', 'http://127.0.0.1/', { allowPorts: [70000] }, /'70000' in allowPorts/],
    ['a header value with a line break', 'http://127.0.0.1/', { headers: { 'x-a': 'b\r\nx-b: c' } }, /"x-a" in the tool's headers/],
    ['a header that frames the request', 'http://127.0.0.1/', { headers: { Host: 'example.com' } }, /'Host' is the runner's to set/],
    ['a response cap of zero', 'http://127.0.0.1/', { maxResponseBytes: 0 }, /maxResponseBytes must be a positive/],
  ] as [string, string, HttpToolOptions, RegExp][])('refuses %s as invalid_config', async ([, url, options, message]) => {
    await expect(runHttp(httpRequest(url, options))).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringMatching(message) });
  });
});
