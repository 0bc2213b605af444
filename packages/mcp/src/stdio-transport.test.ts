import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { idOf, StdioTransport } from './stdio-transport.js';

async function transport(maxMessageBytes = 1024) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const logged: string[] = [];
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let written = '';
  stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const t = new StdioTransport(stdin, stdout, { maxMessageBytes, log: (line) => logged.push(line) });
  t.onmessage = (message) => received.push(message);
  t.onerror = (error) => errors.push(error);
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const replies = () =>
    written
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string } });
  return { stdin, received, errors, logged, replies, settle, closed: () => closed, t };
}

const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe(StdioTransport, () => {
  it('delivers one message per line, across chunk boundaries and multi-byte characters', async () => {
    const io = await transport();
    const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { s: 'é€😀' } })}\r\n`;
    const bytes = Buffer.from(line + request(2));
    for (let i = 0; i < bytes.length; i += 3) io.stdin.write(bytes.subarray(i, i + 3));
    await io.settle();
    expect(io.received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { s: 'é€😀' } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
  });

  it('answers an oversized message with a JSON-RPC error carrying its id, notes it on stderr, and keeps serving', async () => {
    const io = await transport();
    io.stdin.write(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"pad":"${'x'.repeat(2000)}"}}\n`);
    io.stdin.write(request(8));
    await io.settle();
    expect(io.replies()).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringMatching(/longer than the limit of 1,024 bytes; it was skipped/) } },
    ]);
    expect(io.logged.join('')).toMatch(/skipped a stdio message longer than 1,024 bytes \(request id 7\)/);
    expect(io.received).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    expect(io.closed()).toBe(false);
  });

  it('drops an oversized line arriving in many chunks up to its newline, answering it once', async () => {
    const io = await transport();
    io.stdin.write('{"jsonrpc":"2.0","method":"x","params":{"a":"');
    for (let i = 0; i < 10; i++) io.stdin.write('y'.repeat(500));
    io.stdin.write(`"},"id":"late"}\n${request(9)}`);
    await io.settle();
    expect(io.replies()).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) }]);
    expect(io.received).toEqual([{ jsonrpc: '2.0', id: 9, method: 'ping' }]);
    expect(io.errors).toEqual([]);
  });

  it('reports a line that is not JSON-RPC through onerror, as the SDK transport does, and goes on', async () => {
    const io = await transport();
    io.stdin.write(`not json\n${request(3)}`);
    await io.settle();
    expect(io.errors).toHaveLength(1);
    expect(io.received).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });
});

describe(idOf, () => {
  it.for([
    ['{"jsonrpc":"2.0","id":7,"method":"m"', 7],
    ['{ "id" : "abc" , "params": {', 'abc'],
    ['{"method":"m","jsonrpc":"2.0","id":-3}', -3],
    ['{"params":{"id":5},"id":6', null],
    ['{"jsonrpc":"2.0","method":"m","params":{"x":', null],
    ['{"id":{"x":1}}', null],
    ['[{"id":1}]', null],
  ] as const)('%s → %j', ([head, id]) => {
    expect(idOf(head)).toBe(id);
  });
});
