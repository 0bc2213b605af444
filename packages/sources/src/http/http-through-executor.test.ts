// An HTTP tool as the model meets it: declared with source.http, registered, and called through the executor.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import type { HttpToolOptions } from '../source-options.js';
import { source } from '../source.js';
import { json, localEndpoint, type Handler, type LocalEndpoint } from './test-support/local-endpoint.js';
import { httpDeclaration } from './test-support/http-request.js';

const opened: LocalEndpoint[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((endpoint) => endpoint.close()));
});

/** `source.http` as compiled code calls it: the transformer appends the declaration. */
type Compiled = (url: string, options: HttpToolOptions, declaration: ToolDeclaration) => (value: number, from: string) => Promise<unknown>;

async function setUp(handler: Handler, options: { timeoutMs?: number; capabilities?: string[] } = {}) {
  const server = await localEndpoint(handler);
  opened.push(server);
  const tool = (source.http as unknown as Compiled)(
    server.url('/convert-temperature'),
    { allowAddresses: ['127.0.0.1'] },
    httpDeclaration('convert_temperature', ['value', 'from'], options.timeoutMs),
  );
  const registry = new ToolRegistry();
  registry.register(tool);
  const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink(), capabilities: options.capabilities });
  const call = () => executor.executeToolCall({ id: 'c1', name: 'convert_temperature', arguments: { value: 100, from: 'C' } });
  return { server, call };
}

const converts: Handler = (request, response) => {
  const { value } = JSON.parse(request.body) as { value: number };
  json(response, { value: (value * 9) / 5 + 32, unit: 'F' });
};

describe('an HTTP tool through the executor', () => {
  it('completes with the JSON the endpoint answers', async () => {
    const { server, call } = await setUp(converts);
    const result = await call();
    expect(result).toMatchObject({ status: 'completed', output: { value: 212, unit: 'F' } });
    expect(JSON.parse(result.content)).toEqual({ value: 212, unit: 'F' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ value: 100, from: 'C' });
  });

  it('fails with tool_failed carrying the runner code (http_error) when the endpoint answers an error', async () => {
    const { call } = await setUp((_request, response) => json(response, { error: 'the converter is down' }, 503));
    expect(await call()).toMatchObject({
      status: 'error',
      error: { code: 'tool_failed', message: 'the endpoint answered HTTP 503 Service Unavailable: the converter is down', errorCode: 'http_error' },
    });
  });

  it("refuses the call when the executor's explicit grant lacks net.connect (address_refused), and lets it through with it", async () => {
    const denied = await setUp(converts, { capabilities: ['fs.read'] });
    expect(await denied.call()).toMatchObject({ error: { code: 'tool_failed', errorCode: 'address_refused' } });
    expect(denied.server.connections).toBe(0);
    const granted = await setUp(converts, { capabilities: ['net.connect'] });
    expect((await granted.call()).status).toBe('completed');
  });

  it("ends a hanging endpoint's call at the tool's timeout and closes its connection", async () => {
    const { server, call } = await setUp(() => {}, { timeoutMs: 300 });
    expect(await call()).toMatchObject({ error: { code: 'timeout', timeoutMs: 300 } });
    await server.allClosed();
  });
});
