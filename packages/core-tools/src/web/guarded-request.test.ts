import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationsFor, guardedRequest, type RedirectHop } from './guarded-request.js';

type Seen = { method: string; path: string; body: string; type: string | undefined; key: string | undefined };
const seen: Seen[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({
        method: request.method!,
        path: request.url!,
        body,
        type: request.headers['content-type'],
        key: request.headers['x-key'] as string | undefined,
      });
      const redirect = /^\/(\d{3})$/.exec(request.url!);
      if (redirect) return response.writeHead(Number(redirect[1]), { location: '/end' }).end();
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`${request.method} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string) =>
  guardedRequest(
    `${base}${path}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, originHeaders: { 'x-key': 'k' }, body: '{"a":1}' },
    destinationsFor('test', ['127.0.0.1']),
    { maxBytes: 1024, maxRedirects: 5, signal: AbortSignal.timeout(5_000) },
  );

describe(guardedRequest, () => {
  it.for([
    [303, 'GET ', { method: 'GET', body: '', type: undefined }],
    [302, 'GET ', { method: 'GET', body: '', type: undefined }],
    [301, 'GET ', { method: 'GET', body: '', type: undefined }],
    [307, 'POST {"a":1}', { method: 'POST', body: '{"a":1}', type: 'application/json' }],
    [308, 'POST {"a":1}', { method: 'POST', body: '{"a":1}', type: 'application/json' }],
  ] as const)('follows a %i of a POST as browsers do', async ([status, answer, after]) => {
    seen.length = 0;
    const response = await post(`/${status}`);
    expect(response.body.toString()).toBe(answer);
    expect(response.redirects).toEqual([`${base}/end`]);
    expect(seen).toEqual([
      { method: 'POST', path: `/${status}`, body: '{"a":1}', type: 'application/json', key: 'k' },
      { path: '/end', key: 'k', ...after },
    ]);
  });

  it('lets the caller refuse a redirect before anything is sent to its target', async () => {
    seen.length = 0;
    const refusal = new Error('not this one');
    let judged: RedirectHop | undefined;
    const onRedirect = (hop: RedirectHop) => {
      judged = hop;
      throw refusal;
    };
    const request = guardedRequest(`${base}/307`, { method: 'POST', headers: {}, body: 'x', onRedirect }, destinationsFor('test', ['127.0.0.1']), {
      maxBytes: 1024,
      maxRedirects: 5,
      signal: AbortSignal.timeout(5_000),
    });
    await expect(request).rejects.toBe(refusal);
    expect(judged).toMatchObject({ status: 307, followed: 0, to: new URL(`${base}/end`) });
    expect(seen.map((s) => s.path)).toEqual(['/307']);
  });
});
