// `toolwright serve --mcp http` against what a hostile web page or network client sends (issue 10, item 11),
// and terminal control sequences in tool results over MCP (item 8).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from './support/run.js';
import { ServeHarness } from './support/serve-http.js';

const BIN = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const harness = new ServeHarness();
const processes = harness.processes;
afterAll(() => harness.cleanUp());

function workspace(): string {
  return harness.folder('tw-mcp-hard-', { 'policy.json': JSON.stringify({ rules: [{ allow: 'file_write' }] }) });
}

function serve(dir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; port: number; child: ChildProcess }> {
  return harness.startHttp(dir, ['--workspace', dir, '--policy', 'policy.json', '--audit', 'none', ...extra], { ...process.env, ...env });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function post(port: number, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, setHost: !('host' in headers), agent: false },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const writePwned = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'file_write', arguments: { path: 'pwned.txt', content: 'x' } },
});

describe('toolwright serve --mcp http: who may call', () => {
  it('refuses the DNS-rebinding reproduction with 403 and writes nothing', async () => {
    const dir = workspace();
    const { port } = await serve(dir);
    const rebinding: Record<string, string>[] = [
      { host: `evil.example.com:${port}`, origin: `http://evil.example.com:${port}` },
      { host: `evil.example.com:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'https://evil.example.com' },
    ];
    for (const headers of rebinding) {
      const answer = await post(port, { ...MCP, ...headers }, writePwned);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: expect.stringMatching(/^Forbidden/) } });
    }
    expect(fs.existsSync(path.join(dir, 'pwned.txt'))).toBe(false);
    // the same call from a local client is served
    expect((await post(port, MCP, writePwned)).status).toBe(200);
    expect(fs.readFileSync(path.join(dir, 'pwned.txt'), 'utf8')).toBe('x');
  });

  it('accepts the hosts and origins named with --allow-host and --allow-origin', async () => {
    const dir = workspace();
    const { port } = await serve(dir, [
      '--allow-host',
      'mcp.example.com',
      '--allow-origin',
      'https://app.example.com',
      '--allow-origin',
      'https://other.example.com',
    ]);
    expect((await post(port, { ...MCP, host: 'mcp.example.com', origin: 'https://other.example.com' }, writePwned)).status).toBe(200);
    expect((await post(port, { ...MCP, host: 'mcp.example.org' }, writePwned)).status).toBe(403);
  });

  it('requires the bearer token named by --auth-token-env', async () => {
    const dir = workspace();
    const { url, port } = await serve(dir, ['--auth-token-env', 'TW_E2E_TOKEN'], { TW_E2E_TOKEN: 'e2e-token-1234' });
    const refused = await post(port, MCP, writePwned);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await post(port, { ...MCP, authorization: 'Bearer wrong' }, writePwned)).status).toBe(401);
    expect(fs.existsSync(path.join(dir, 'pwned.txt'))).toBe(false);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer e2e-token-1234' } } }));
    expect(((await client.callTool({ name: 'file_write', arguments: { path: 'ok.txt', content: 'y' } })) as CallToolResult).isError).toBeFalsy();
    await client.close();
  });

  it.for([
    [['--host', '0.0.0.0'], /refusing to listen on 0\.0\.0\.0 without authentication.*--insecure-no-auth/s],
    [['--auth-token-env', 'TW_E2E_UNSET_VARIABLE'], /TW_E2E_UNSET_VARIABLE is not set or empty/],
    [['--allow-origin', 'not an origin'], /not an origin/],
    [['--max-sessions', '0'], /--max-sessions takes a positive whole number/],
    [['--session-idle-timeout', 'soon'], /--session-idle-timeout takes a positive number of seconds/],
  ] as const)('refuses to start with %j, saying why', ([flags, message]) => {
    const dir = workspace();
    const result = spawnSync(process.execPath, [BIN, 'serve', '--mcp', 'http', '--port', '0', '--workspace', dir, '--audit', 'none', ...flags], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('refuses HTTP-only flags with stdio', () => {
    const dir = workspace();
    const result = spawnSync(process.execPath, [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir, '--allow-host', 'x.example'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--allow-host applies to --mcp http only');
  });

  it('listens beyond loopback only when told --insecure-no-auth, and warns', async () => {
    const dir = workspace();
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--mcp', 'http', '--port', '0', '--host', '0.0.0.0', '--insecure-no-auth', '--workspace', dir, '--audit', 'none'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    processes.push(child);
    let err = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (/ at http/.test(err)) resolve();
      }),
    );
    child.kill('SIGTERM');
    expect(err).toMatch(/WARNING: no authentication on 0\.0\.0\.0/);
  });
});

describe('toolwright serve --mcp http: hostile requests', () => {
  it('answers a body over --max-body-bytes with 413, then keeps serving', async () => {
    const dir = workspace();
    const { port } = await serve(dir, ['--max-body-bytes', '1024']);
    const answer = await post(port, MCP, Buffer.alloc(16 * 1024 * 1024, 0x20));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringContaining('1024 bytes') } });
    expect((await post(port, { ...MCP, 'content-type': 'text/plain' }, writePwned)).status).toBe(415);
    expect((await post(port, MCP, '{"jsonrpc":')).status).toBe(400);
    expect((await post(port, MCP, writePwned)).status).toBe(200);
  });

  it('closes sessions idle past --session-idle-timeout', async () => {
    const dir = workspace();
    const { url } = await serve(dir, ['--sessions', '--session-idle-timeout', '0.3']);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const session = transport.sessionId!;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const answer = await post(
      Number(new URL(url).port),
      { ...MCP, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    );
    expect(answer.status).toBe(404);
    await client.close().catch(() => undefined);
  });
});

describe('terminal control sequences over MCP', () => {
  const HOSTILE = 'title\u001b]0;pwned\u0007 \u001b[2J\u009b31m \u202Etxt.exe\r\n';

  it.for(['stdio', 'http'] as const)('never reach the client raw over %s (content, structured content, errors)', async (transport) => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'notes.txt'), HOSTILE);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    if (transport === 'stdio') {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir, '--audit', 'none'],
          cwd: dir,
          stderr: 'pipe',
        }),
      );
    } else {
      await client.connect(new StreamableHTTPClientTransport(new URL((await serve(dir)).url)));
    }
    try {
      const read = (await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(read.isError).toBeFalsy();
      const failed = (await client.callTool({ name: 'file_read', arguments: { path: 'missing\u001b[2J\u009b.txt' } })) as CallToolResult;
      expect(failed.isError).toBe(true);
      for (const result of [read, failed]) expect(collect(result).filter((text) => RAW_CONTROLS.test(text))).toEqual([]);
      expect(JSON.stringify(read.structuredContent)).toContain('\\\\u001b]0;pwned\\\\u0007');
    } finally {
      await client.close();
    }
  });
});

/** Every string in a value, keys included. */
function collect(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...collect(child)]);
}
