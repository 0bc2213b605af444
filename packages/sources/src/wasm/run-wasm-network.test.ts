import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { localEndpoint, type LocalEndpoint } from '../http/test-support/local-endpoint.js';
import { HostStatus } from './host-status.js';
import { runWasm } from './run-wasm.js';
import { liveWorkerCount, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmRequest, type WasmCall } from './test-support/wasm-request.js';

const MIB = 1024 * 1024;
const local = { options: { allowAddresses: ['127.0.0.1'] } } satisfies WasmCall;
let endpoint: LocalEndpoint;

function body(response: http.ServerResponse, bytes: number, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
  response.end(Buffer.alloc(bytes, 0x61));
}

/** Writes 64 KiB chunks for as long as the client reads them. */
function endless(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(64 * 1024, 0x62);
  const more = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', more);
  more();
}

beforeAll(async () => {
  endpoint = await localEndpoint((request, response) => {
    const target = new URL(request.path, endpoint.origin);
    switch (target.pathname) {
      case '/hello':
        return body(response, 11);
      case '/missing':
        return body(response, 4, 404);
      case '/to':
        response.writeHead(302, { location: target.searchParams.get('location') ?? '/' });
        return response.end();
      case '/hang':
        return; // never answers
      case '/sized':
        return body(response, Number(target.searchParams.get('bytes')));
      case '/endless':
        return endless(response);
    }
  });
  await buildWasmModules();
}, 120_000);
afterEach(async () => {
  // Whatever a call did, it leaves no connection open behind it.
  await endpoint.allClosed();
});
afterAll(async () => {
  await endpoint.close();
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

function fetchWith(url: string, call: WasmCall = {}, strict = false): Promise<unknown> {
  return runWasm(wasmRequest(testModule('fetch'), { ...call, input: { url, ...(strict ? { strict } : {}) } }));
}

describe('runWasm network access (toolwright.http_get)', () => {
  it('GETs a local address the tool allows, handing the module the body and the status', async () => {
    await expect(fetchWith(endpoint.url('/hello'), local)).resolves.toEqual({ status: 200, length: 11 });
    await expect(fetchWith(endpoint.url('/missing'), local)).resolves.toEqual({ status: 404, length: 4 });
    expect(endpoint.requests.at(-1)).toMatchObject({ method: 'GET', path: '/missing' });
  });

  it.for([
    ['explicit capabilities with net.connect', ['net.connect']],
    ['explicit capabilities with net.connect for the host', ['fs.read', 'net.connect:127.0.0.1']],
  ] as const)('GETs with %s', async ([, capabilities]) => {
    await expect(fetchWith(endpoint.url('/hello'), { ...local, capabilities })).resolves.toEqual({ status: 200, length: 11 });
  });

  it.for([
    ['a loopback address the tool does not allow', {}],
    ['explicit capabilities without net.connect', { ...local, capabilities: ['fs.read', 'fs.write'] }],
    ['net.connect for another host', { ...local, capabilities: ['net.connect:example.com'] }],
  ] as const)('refuses %s before connecting', async ([, call]) => {
    const before = endpoint.connections;
    await expect(fetchWith(endpoint.url('/hello'), call)).resolves.toEqual({ code: HostStatus.denied });
    expect(endpoint.connections).toBe(before);
  });

  it.for([
    ['an address the tool does not allow', 'http://169.254.169.254/latest/meta-data/', {}],
    ['a host the capabilities do not cover', 'http://localhost:PORT/hello', { capabilities: ['net.connect:127.0.0.1'] }],
  ] as const)('refuses a redirect to %s', async ([, location, call]) => {
    const to = endpoint.url(`/to?location=${encodeURIComponent(location.replace('PORT', String(endpoint.port)))}`);
    const before = endpoint.requests.length;
    await expect(fetchWith(to, { ...local, ...call })).resolves.toEqual({ code: HostStatus.denied });
    expect(endpoint.requests.slice(before).map((request) => request.path)).toEqual([new URL(to).pathname + new URL(to).search]);
  });

  it.for([
    ['the address policy', {}, /refused GET 127\.0\.0\.1:\d+: .*then it failed: http_get failed: -1/],
    ['the capabilities', { ...local, capabilities: ['fs.read'] }, /does not hold the net\.connect capability.*then it failed/],
  ] as const)('reports address_refused when the module fails after a refusal by %s', async ([, call, message]) => {
    await expect(fetchWith(endpoint.url('/hello'), call, true)).rejects.toMatchObject({ code: 'address_refused', message: expect.stringMatching(message) });
  });

  it.for([
    ['a URL that is not http(s)', 'file:///etc/passwd', HostStatus.invalid],
    ['a host that does not resolve', 'http://no-such-host.invalid/', HostStatus.failed],
  ] as const)('answers %s with a status', async ([, url, code]) => {
    await expect(fetchWith(url, local)).resolves.toEqual({ code });
  });

  it('refuses invalid allowAddresses and allowPorts as invalid_config', async () => {
    await expect(fetchWith(endpoint.url('/hello'), { options: { allowAddresses: ['localhost'] } })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(fetchWith(endpoint.url('/hello'), { options: { allowPorts: [70_000] } })).rejects.toMatchObject({ code: 'invalid_config' });
  });

  it.for([
    ['ends at its timeout', 'resource_exhausted'],
    ['is cancelled', 'cancelled'],
  ] as const)('closes the connection and stops the worker when a call waiting on a hanging server %s', async ([, code]) => {
    const before = liveWorkerCount();
    const connections = endpoint.connections;
    const controller = new AbortController();
    // Cancelled once the server holds the connection, and a timeout long enough to reach it: a CI run under load
    // cancelled after a fixed 300 ms, before the worker had started and connected.
    const call = code === 'cancelled' ? { ...local, signal: controller.signal } : { ...local, timeoutMs: 3_000 };
    const settled = expect(fetchWith(endpoint.url('/hang'), call)).rejects.toMatchObject({ code });
    if (code === 'cancelled') {
      const until = performance.now() + 30_000;
      while (endpoint.connections === connections && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
    }
    await settled;
    expect(endpoint.connections).toBe(connections + 1);
    await endpoint.allClosed();
    expect(liveWorkerCount()).toBeLessThanOrEqual(before);
  });

  it('hands over a body of exactly 4 MiB', async () => {
    await expect(fetchWith(endpoint.url(`/sized?bytes=${4 * MIB}`), local)).resolves.toEqual({ status: 200, length: 4 * MIB });
  });

  it('stops reading an endless body at 4 MiB and answers too large', async () => {
    await expect(fetchWith(endpoint.url('/endless'), local)).resolves.toEqual({ code: HostStatus.tooLarge });
  });

  it("caps the body at what the module's memory could hold", async () => {
    await expect(fetchWith(endpoint.url(`/sized?bytes=${3 * MIB}`), { ...local, maxMemoryBytes: 2 * MIB })).resolves.toEqual({
      code: HostStatus.tooLarge,
    });
    await expect(fetchWith(endpoint.url(`/sized?bytes=${MIB}`), { ...local, maxMemoryBytes: 2 * MIB })).resolves.toEqual({ status: 200, length: MIB });
  });
});
