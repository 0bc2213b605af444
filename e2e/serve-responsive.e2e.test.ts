// `toolwright serve --mcp stdio` keeps answering while a tool works on input a model or a web page
// sized: a page of 330 KB of nested <div>s once held its event loop for two minutes, so a `ping` waited
// and the call's own timeout never fired.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stopwatch } from '../tools/vitest/ready-wait.mts';
import { REPO } from './support/run.js';

const BIN = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
/**
 * Longest a `ping` may wait, not counting the time the machine left either side's ready main thread
 * waiting for a CPU: far above the remaining noise, far below a held event loop.
 */
const MAX_PING_MS = 1_000;

const PAGES: Record<string, string> = {
  '/nested': `<html><body>${'<div>'.repeat(30_000)}x${'</div>'.repeat(30_000)}</body></html>`,
  // Within the nesting cap, yet readability takes half a minute over 2 MiB of it: the conversion's budget ends it.
  '/thicket': `<html><head><title>Thicket</title></head><body>${`${'<div>'.repeat(128)}leaf${'</div>'.repeat(128)}`.repeat(1_500)}</body></html>`,
};

let server: http.Server;
let base = '';
let dir = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGES[req.url ?? ''] ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-responsive-')));
  fs.writeFileSync(path.join(dir, 'toolwright.config.json'), JSON.stringify({ web: { allowAddresses: ['127.0.0.1'] } }));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Pings every 100 ms until `work` settles; returns its result and the slowest ping (less the time either side waited for a CPU). */
async function pingingWhile<T>(client: Client, serverPid: number, work: Promise<T>): Promise<{ value: T; slowestPingMs: number }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  let slowestPingMs = 0;
  while (!done) {
    const elapsed = stopwatch([process.pid, serverPid]);
    await client.ping();
    slowestPingMs = Math.max(slowestPingMs, elapsed());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { value: await settled, slowestPingMs };
}

describe('serve --mcp stdio under hostile web pages', () => {
  it('answers ping while web_fetch converts them, and answers the fetch itself', async () => {
    const client = new Client({ name: 'e2e-responsive', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir],
      cwd: dir,
      stderr: 'pipe',
    });
    await client.connect(transport);
    const serverPid = transport.pid ?? 0;
    try {
      const fetch = (url: string) => client.callTool({ name: 'web_fetch', arguments: { url } }, undefined, { timeout: 60_000 }) as Promise<CallToolResult>;
      const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

      const nested = await pingingWhile(client, serverPid, fetch(`${base}/nested`));
      expect(nested.value.isError).toBeFalsy();
      expect(text(nested.value)).toMatch(/\n\nx$/);
      expect(nested.slowestPingMs).toBeLessThan(MAX_PING_MS);

      const thicket = await pingingWhile(client, serverPid, fetch(`${base}/thicket`));
      expect(thicket.value.isError).toBeFalsy();
      expect(text(thicket.value)).toContain(
        '[the page was too complex to convert to Markdown (converting it took longer than 10 s); this is its text, without links or formatting]',
      );
      expect(thicket.slowestPingMs).toBeLessThan(MAX_PING_MS);
    } finally {
      await client.close();
    }
  });
});
