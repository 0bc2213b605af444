// The official MCP SDK client against `toolwright serve`, over stdio and Streamable HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from './support/run.js';
import { ServeHarness } from './support/serve-http.js';
import { stopwatch } from '../tools/vitest/ready-wait.mts';

const BIN = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const PROJECT = path.join(__dirname, 'mcp-project', 'tsconfig.json');
const harness = new ServeHarness();
const processes = harness.processes;
afterAll(() => harness.cleanUp());

function workspace(): string {
  return harness.folder('tw-mcp-', {
    'notes.txt': 'alpha\nbeta\n',
    'policy.json': JSON.stringify({ rules: [{ deny: 'file_delete', reason: 'nothing is deleted over MCP' }] }),
  });
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function stdioClient(dir: string, capabilities: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' }, capabilities);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir, '--policy', 'policy.json', '-p', PROJECT],
      cwd: dir,
      stderr: 'pipe',
    }),
  );
  return client;
}

function startHttp(dir: string, extra: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  return harness.startHttp(dir, ['--workspace', dir, '--policy', 'policy.json', ...extra]);
}

/** A client of `toolwright serve` over either transport, with the project's own tools too. */
async function connect(
  transport: 'stdio' | 'http' | 'http-sessions',
  dir: string,
  capabilities: ConstructorParameters<typeof Client>[1] = {},
): Promise<Client> {
  if (transport === 'stdio') return stdioClient(dir, capabilities);
  const { url } = await startHttp(dir, ['-p', PROJECT, ...(transport === 'http-sessions' ? ['--sessions'] : [])]);
  const client = new Client({ name: 'e2e-http', version: '1.0.0' }, capabilities);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** For the tests that read no audit log: one workspace, and one server per HTTP transport their clients connect to. */
let sharedDir: string | undefined;
const sharedUrls = new Map<'http' | 'http-sessions', Promise<string>>();
async function connectShared(transport: 'stdio' | 'http' | 'http-sessions'): Promise<Client> {
  const dir = (sharedDir ??= workspace());
  if (transport === 'stdio') return stdioClient(dir);
  let url = sharedUrls.get(transport);
  if (!url) sharedUrls.set(transport, (url = startHttp(dir, ['-p', PROJECT, ...(transport === 'http-sessions' ? ['--sessions'] : [])]).then((s) => s.url)));
  const client = new Client({ name: 'e2e-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(await url)));
  return client;
}

describe.each(['stdio', 'http', 'http-sessions'] as const)('MCP over %s', (transport) => {
  it("lists the core tools and the project's tools with annotations and schemas", async () => {
    const client = await connectShared(transport);
    try {
      const { tools } = await client.listTools();
      const read = tools.find((t) => t.name === 'file_read')!;
      expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(read.title).toBe('File read');
      expect(read.inputSchema.required).toEqual(['path']);
      // file_read may answer with an image (content blocks), so it promises no structured content; file_list does.
      expect(read.outputSchema).toBeUndefined();
      expect(tools.find((t) => t.name === 'file_list')!.outputSchema?.type).toBe('object');
      expect(tools.find((t) => t.name === 'shell_exec')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(tools.map((t) => t.name)).toContain('countdown');
    } finally {
      await client.close();
    }
  });

  it('calls a tool, answers a malformed call with the correction text, and denies by policy', async () => {
    const dir = workspace();
    const client = await connect(transport, dir);
    try {
      const read = (await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(read.isError).toBeFalsy();
      expect(read.structuredContent).toMatchObject({ content: '1\talpha\n2\tbeta', totalLines: 2 });
      const malformed = (await client.callTool({ name: 'file_read', arguments: { limit: 'ten' } })) as CallToolResult;
      expect(malformed.isError).toBe(true);
      expect(text(malformed)).toContain("missing required field 'path'");
      const denied = (await client.callTool({ name: 'file_delete', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(denied.isError).toBe(true);
      expect(text(denied)).toContain('nothing is deleted over MCP');
      expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    } finally {
      await client.close();
    }
    const auditFile = fs.readdirSync(path.join(dir, '.toolwright')).find((f) => f.startsWith('audit-serve-'))!;
    const types = fs
      .readFileSync(path.join(dir, '.toolwright', auditFile), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type);
    expect(types.filter((t) => t === 'ToolCallCompleted')).toHaveLength(1);
    expect(types.filter((t) => t === 'ToolCallRejected')).toHaveLength(2);
  });

  it('streams tool progress as progress notifications', async () => {
    const client = await connectShared(transport);
    try {
      const seen: number[] = [];
      const result = (await client.callTool({ name: 'countdown', arguments: { from: 4 } }, undefined, {
        onprogress: (p) => seen.push(p.progress),
      })) as CallToolResult;
      expect(result.structuredContent).toEqual({ counted: 4 });
      expect(seen).toEqual([1, 2, 3, 4]);
    } finally {
      await client.close();
    }
  });

  it('asks for approval by elicitation when the client supports it, and refuses clearly when not', async () => {
    const dir = workspace();
    const plain = await connect(transport, dir);
    try {
      const refused = (await plain.callTool({ name: 'shell_exec', arguments: { command: 'ls' } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(transport === 'http' ? 'runs stateless over HTTP' : 'does not support elicitation');
    } finally {
      await plain.close();
    }
    if (transport === 'http') return; // a stateless server never saw the client's capabilities: it cannot ask
    const asking = await connect(transport, dir, { capabilities: { elicitation: {} } });
    const prompts: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, async (request) => {
      prompts.push(request.params.message);
      return { action: 'accept', content: { decision: 'once' } };
    });
    try {
      const approved = (await asking.callTool({ name: 'shell_exec', arguments: { command: 'ls notes.txt' } })) as CallToolResult;
      expect(approved.isError).toBeFalsy();
      // The model reads the shell's rendering: the exit code, then the output blocks.
      expect(text(approved)).toMatch(/^exit code 0\b[^]*notes\.txt/);
      expect(prompts[0]).toContain('shell_exec');
    } finally {
      await asking.close();
    }
  });

  it("turns the client's cancellation into the call's AbortSignal", async () => {
    const dir = workspace();
    const client = await connect(transport, dir, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { decision: 'once' } }));
    try {
      const controller = new AbortController();
      const elapsed = stopwatch();
      setTimeout(() => controller.abort(), 300);
      await expect(client.callTool({ name: 'countdown', arguments: { from: 50 } }, undefined, { signal: controller.signal })).rejects.toThrow();
      expect(elapsed()).toBeLessThan(5000);
      // the server is still healthy, and the cancelled call is audited as failed
      expect(((await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })) as CallToolResult).isError).toBeFalsy();
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await client.close();
    }
    // Stateless HTTP: the cancel notification arrives in another request, which no longer knows the call
    // (the documented price of statelessness; serve with --sessions to route it). The client stops waiting.
    if (transport === 'http') return;
    const auditFile = fs.readdirSync(path.join(dir, '.toolwright')).find((f) => f.startsWith('audit-serve-'))!;
    const records = fs
      .readFileSync(path.join(dir, '.toolwright', auditFile), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.some((r) => r.type === 'ToolCallFailed' && r.code === 'cancelled')).toBe(true);
  });
});

describe('MCP over stdio: shell_exec asking to run outside the sandbox', () => {
  it("runs it outside the sandbox once the client's user confirms that in the form, never on an answer like any other", async () => {
    const client = await stdioClient(workspace(), { capabilities: { elicitation: {} } });
    let content: Record<string, string | boolean> = { decision: 'once' };
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content }));
    const call = async () => (await client.callTool({ name: 'shell_exec', arguments: { command: 'true', escalate: true } })) as CallToolResult;
    try {
      const blanket = await call();
      expect(blanket.isError).toBe(true);
      expect(text(blanket)).toContain('outside the sandbox');
      content = { run_outside_sandbox: true };
      const confirmed = await call();
      expect(confirmed.isError).toBeFalsy();
      expect(text(confirmed)).toMatch(/^exit code 0\b.*; ran outside the sandbox, as approved/);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over stdio: a message over the size limit', () => {
  it('is answered with a JSON-RPC error and skipped, noted on stderr, and the server keeps serving', async () => {
    const dir = workspace();
    const child = spawn(process.execPath, [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir, '--policy', 'policy.json'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    processes.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const reply = async (id: number) => {
      let found: Record<string, unknown> | undefined;
      await expect
        .poll(
          () =>
            (found = out
              .split('\n')
              .filter((l) => l.trim() !== '')
              .map((l) => JSON.parse(l) as Record<string, unknown>)
              .find((m) => m.id === id)),
          { timeout: 20_000 },
        )
        .toBeDefined();
      return found!;
    };
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
    });
    expect(await reply(1)).toHaveProperty('result');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { pad: 'x'.repeat(11 * 1024 * 1024) } });
    expect(await reply(2)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/longer than the limit of 10,485,760 bytes/) } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(((await reply(3)).result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect(err).toMatch(/skipped a stdio message longer than 10,485,760 bytes \(request id 2\)/);
    child.stdin!.end();
    expect(await exited).toBe(0);
  });
});

describe('MCP over Streamable HTTP', () => {
  it('lists and calls through a stateless HTTP server', async () => {
    const dir = workspace();
    const { url } = await startHttp(dir);
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
      const read = (await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(read.structuredContent).toMatchObject({ totalLines: 2 });
      const denied = (await client.callTool({ name: 'file_delete', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(denied.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('two server processes behind a round-robin balancer serve one client, each auditing its own calls', async () => {
    const dir = workspace();
    const backends = [await startHttp(dir), await startHttp(dir)];
    let next = 0;
    const hits = [0, 0];
    const balancer = http.createServer((req, res) => {
      const index = next++ % 2;
      hits[index]!++;
      const target = new URL(backends[index]!.url);
      // Like nginx's default (`proxy_set_header Host $proxy_host`): the backend sees its own name, which it accepts.
      const proxied = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: { ...req.headers, host: target.host } },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      req.pipe(proxied);
    });
    await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
    const client = new Client({ name: 'e2e-lb', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`)));
    try {
      for (let i = 0; i < 6; i++) {
        const result = (await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })) as CallToolResult;
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
      balancer.closeAllConnections();
      await new Promise((resolve) => balancer.close(resolve));
    }
    expect(hits[0]).toBeGreaterThan(0);
    expect(hits[1]).toBeGreaterThan(0);
    const logs = fs.readdirSync(path.join(dir, '.toolwright')).filter((f) => f.startsWith('audit-serve-') && f.endsWith('.jsonl'));
    expect(logs).toHaveLength(2);
    // Records of read-only calls are written without holding the call up: give the last one a moment.
    const completedRecords = () =>
      logs
        .flatMap((f) =>
          fs
            .readFileSync(path.join(dir, '.toolwright', f), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        )
        .filter((r) => r.type === 'ToolCallCompleted');
    await expect.poll(() => completedRecords().length, { timeout: 5000 }).toBe(6);
    const completed = completedRecords();
    expect(new Set(completed.map((r) => r.callId)).size).toBe(6);
  });
});
