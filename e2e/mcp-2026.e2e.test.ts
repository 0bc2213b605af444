// The v2 MCP SDK's client against `toolwright serve` in both protocol eras: 2026-07-28 (stateless: `server/discover`,
// capabilities in each request's `_meta`, approvals as `input_required` results) and 2025-11-25 (`initialize`), over
// stdio and Streamable HTTP, stateless and with sessions.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI as BIN, ServeHarness } from './support/serve-http.js';
import { stopwatch } from '../tools/vitest/ready-wait.mts';

const PROJECT = path.join(__dirname, 'mcp-project', 'tsconfig.json');
const MODERN = '2026-07-28';
const harness = new ServeHarness();
afterAll(() => harness.cleanUp());

function workspace(): string {
  return harness.folder('tw-mcp26-', {
    'notes.txt': 'alpha\nbeta\n',
    'policy.json': JSON.stringify({ rules: [{ deny: 'file_delete', reason: 'nothing is deleted over MCP' }] }),
  });
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

type Negotiation = NonNullable<ClientOptions['versionNegotiation']>['mode'];
type Transport = 'stdio' | 'http' | 'http-sessions';

async function startHttp(dir: string, extra: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return (await harness.startHttp(dir, ['--workspace', dir, '--policy', 'policy.json', '-p', PROJECT, ...extra], env)).url;
}

/** A v2 client of `toolwright serve`, pinned to an era (or negotiating), with the given capabilities. */
async function connect(transport: Transport, dir: string, mode: Negotiation, options: Omit<ClientOptions, 'versionNegotiation'> = {}): Promise<Client> {
  const client = new Client({ name: 'e2e-v2', version: '1.0.0' }, { ...options, versionNegotiation: { mode } });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--mcp', 'stdio', '--workspace', dir, '--policy', 'policy.json', '-p', PROJECT],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
  } else {
    const url = await startHttp(dir, transport === 'http-sessions' ? ['--sessions'] : []);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }
  return client;
}

/**
 * One workspace, and one server per HTTP transport, for the tests that read no audit log: their clients connect to it
 * (a server serves clients of both eras, each as it asks) instead of a server of their own; a stdio client starts its own.
 */
let sharedDir: string | undefined;
const sharedUrls = new Map<Transport, Promise<string>>();
async function connectShared(transport: Transport, mode: Negotiation, options: Omit<ClientOptions, 'versionNegotiation'> = {}): Promise<Client> {
  const dir = (sharedDir ??= workspace());
  if (transport === 'stdio') return connect(transport, dir, mode, options);
  let url = sharedUrls.get(transport);
  if (!url) sharedUrls.set(transport, (url = startHttp(dir, transport === 'http-sessions' ? ['--sessions'] : [])));
  const client = new Client({ name: 'e2e-v2', version: '1.0.0' }, { ...options, versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(await url)));
  return client;
}

/** Every record of the serve processes' audit logs (a stdio client may start a short-lived second one to probe the era). */
function auditRecords(dir: string): { type: string; callId: string; code?: string; tool?: string }[] {
  return fs
    .readdirSync(path.join(dir, '.toolwright'))
    .filter((f) => f.startsWith('audit-serve-'))
    .flatMap((file) => fs.readFileSync(path.join(dir, '.toolwright', file), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

describe.each(['stdio', 'http', 'http-sessions'] as const)('a 2026-07-28 client over %s', (transport) => {
  it('connects without initialize, lists the tools with their schemas, calls, corrects and denies', async () => {
    const dir = workspace();
    const client = await connect(transport, dir, { pin: MODERN });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const { tools } = await client.listTools();
      const read = tools.find((t) => t.name === 'file_read')!;
      expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(read.inputSchema.required).toEqual(['path']);
      expect(tools.map((t) => t.name)).toContain('countdown');
      const result = await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ content: '1\talpha\n2\tbeta', totalLines: 2 });
      const malformed = await client.callTool({ name: 'file_read', arguments: { limit: 'ten' } });
      expect(malformed.isError).toBe(true);
      expect(text(malformed)).toContain("missing required field 'path'");
      const denied = await client.callTool({ name: 'file_delete', arguments: { path: 'notes.txt' } });
      expect(text(denied)).toContain('nothing is deleted over MCP');
      expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    } finally {
      await client.close();
    }
    const types = auditRecords(dir).map((r) => r.type);
    expect(types.filter((t) => t === 'ToolCallCompleted')).toHaveLength(1);
    expect(types.filter((t) => t === 'ToolCallRejected')).toHaveLength(2);
  });

  it("streams the tool's progress and turns the client's cancellation into the call's AbortSignal", async () => {
    const client = await connectShared(transport, { pin: MODERN });
    try {
      const seen: number[] = [];
      const counted = await client.callTool({ name: 'countdown', arguments: { from: 4 } }, { onprogress: (p) => seen.push(p.progress) });
      expect(counted.structuredContent).toEqual({ counted: 4 });
      expect(seen).toEqual([1, 2, 3, 4]);
      const controller = new AbortController();
      const elapsed = stopwatch();
      setTimeout(() => controller.abort(), 300);
      await expect(client.callTool({ name: 'countdown', arguments: { from: 50 } }, { signal: controller.signal })).rejects.toThrow();
      expect(elapsed()).toBeLessThan(5000);
      expect((await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('asks for approval with an input_required result the client answers, and refuses clearly where it cannot ask', async () => {
    const dir = workspace();
    const plain = await connect(transport, dir, { pin: MODERN });
    try {
      const refused = await plain.callTool({ name: 'shell_exec', arguments: { command: 'ls' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('does not support elicitation');
    } finally {
      await plain.close();
    }
    const asking = await connect(transport, dir, { pin: MODERN }, { capabilities: { elicitation: { form: {} } } });
    const prompts: string[] = [];
    let decision = 'once';
    asking.setRequestHandler('elicitation/create', async (request) => {
      prompts.push(request.params.message);
      return { action: 'accept', content: { decision } };
    });
    try {
      const approved = await asking.callTool({ name: 'shell_exec', arguments: { command: 'ls notes.txt' } });
      expect(approved.isError).toBeFalsy();
      expect(text(approved)).toMatch(/^exit code 0\b[^]*notes\.txt/);
      expect(prompts[0]).toContain('shell_exec');
      decision = 'reject';
      const rejected = await asking.callTool({ name: 'shell_exec', arguments: { command: 'ls notes.txt' } });
      expect(rejected.isError).toBe(true);
      expect(text(rejected)).toContain('rejected');
      // "always" holds for the client that said it where the server can tell it apart (a stdio connection); a
      // 2026-07-28 request over HTTP carries no identity, so there it approves that one call.
      decision = 'always';
      const before = prompts.length;
      for (let i = 0; i < 2; i++) expect((await asking.callTool({ name: 'shell_exec', arguments: { command: 'ls' } })).isError).toBeFalsy();
      expect(prompts.length - before).toBe(transport === 'stdio' ? 1 : 2);
    } finally {
      await asking.close();
    }
    // Each question is a call the server refused until the client came back with the answer: one more call each.
    const records = auditRecords(dir);
    const shellCalls = new Set(records.filter((r) => r.type === 'ToolCallRequested' && r.tool === 'shell_exec').map((r) => r.callId));
    expect(shellCalls.size).toBe(transport === 'stdio' ? 8 : 9);
    expect(records.filter((r) => r.type === 'ToolCallCompleted' && shellCalls.has(r.callId))).toHaveLength(3);
    // A round that handed the question to the client is recorded as deferred, not as refused or unaskable.
    const deferred = records.filter((r) => r.type === 'PolicyDecision' && (r as { approval?: string }).approval === 'deferred');
    expect(deferred.length).toBe(transport === 'stdio' ? 3 : 4);
  });
});

describe('2026-07-28 approvals: what a retry must carry', () => {
  it('takes an answer only for the call it was asked about, with the state the server sealed', async () => {
    const dir = workspace();
    const client = await connect('http', dir, { pin: MODERN }, { capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    try {
      const asked = (await client.callTool({ name: 'shell_exec', arguments: { command: 'ls notes.txt' } }, { allowInputRequired: true })) as unknown as {
        resultType: string;
        inputRequests: Record<string, { method: string }>;
        requestState: string;
      };
      expect(asked.resultType).toBe('input_required');
      expect(Object.values(asked.inputRequests).map((r) => r.method)).toEqual(['elicitation/create']);
      const yes = { approval: { action: 'accept', content: { decision: 'once' } } };
      const retry = (args: Record<string, unknown>, requestState: string) =>
        client.callTool({ name: 'shell_exec', arguments: args, inputResponses: yes, requestState } as never, { allowInputRequired: true });
      // The state the server sealed, for other arguments: asked again, never run.
      const other = (await retry({ command: 'touch made-by-retry' }, asked.requestState)) as unknown as { resultType?: string };
      expect(other.resultType).toBe('input_required');
      expect(fs.existsSync(path.join(dir, 'made-by-retry'))).toBe(false);
      // A state the server did not seal is refused (-32602), never run.
      await expect(retry({ command: 'touch made-by-forgery' }, `${asked.requestState.slice(0, -2)}xx`)).rejects.toThrow(/Invalid or expired requestState/);
      expect(fs.existsSync(path.join(dir, 'made-by-forgery'))).toBe(false);
      // The same call with its sealed state: it runs.
      const ran = (await retry({ command: 'ls notes.txt' }, asked.requestState)) as unknown as CallToolResult;
      expect(ran.isError).toBeFalsy();
      expect(text(ran)).toMatch(/^exit code 0\b/);
    } finally {
      await client.close();
    }
  });

  it('confirms a run outside the sandbox only with the form that says so, over stdio', async () => {
    const client = await connect('stdio', workspace(), { pin: MODERN }, { capabilities: { elicitation: { form: {} } } });
    let content: Record<string, string | boolean> = { decision: 'once' };
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content }));
    const call = () => client.callTool({ name: 'shell_exec', arguments: { command: 'true', escalate: true } });
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

describe('one server for both eras', () => {
  it.each(['stdio', 'http', 'http-sessions'] as const)('over %s, a 2025-11-25 client and a negotiating one connect, list and call', async (transport) => {
    for (const [mode, era] of [
      ['legacy', 'legacy'],
      ['auto', 'modern'],
    ] as const) {
      const client = await connectShared(transport, mode);
      try {
        expect(client.getProtocolEra()).toBe(era);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('file_read');
        expect((await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } })).structuredContent).toMatchObject({ totalLines: 2 });
      } finally {
        await client.close();
      }
    }
  });
});

describe("a tool's own questions (getToolContext().elicit)", () => {
  const answers = (request: { params: { message: string } }): Record<string, string> =>
    request.params.message.includes('name') ? { name: 'Ada' } : { colour: 'teal' };

  it.each(['stdio', 'http', 'http-sessions'] as const)(
    'over %s, a 2026-07-28 client is asked each question by an input_required result, the tool running again with the answers',
    async (transport) => {
      const client = await connectShared(transport, { pin: MODERN }, { capabilities: { elicitation: { form: {} } } });
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: answers(request) };
      });
      try {
        const result = await client.callTool({ name: 'introduce', arguments: {} });
        expect(text(result)).toContain('Hello, Ada! You like teal.');
        expect(asked).toEqual(['introduce asks: What is your name?', 'introduce asks: Hello, Ada! Your favourite colour?']);
      } finally {
        await client.close();
      }
      const plain = await connectShared(transport, { pin: MODERN });
      try {
        expect(text(await plain.callTool({ name: 'introduce', arguments: {} }))).toContain('not introduced: the MCP client cannot ask its user');
      } finally {
        await plain.close();
      }
    },
  );

  it.each(['stdio', 'http-sessions'] as const)('over %s, a 2025-11-25 client is asked by elicitation, mid-call', async (transport) => {
    const client = await connectShared(transport, 'legacy', { capabilities: { elicitation: { form: {} } } });
    let declined = false;
    client.setRequestHandler('elicitation/create', async (request) =>
      declined && !request.params.message.includes('name') ? { action: 'decline' } : { action: 'accept', content: answers(request) },
    );
    try {
      expect(text(await client.callTool({ name: 'introduce', arguments: {} }))).toContain('Hello, Ada! You like teal.');
      declined = true;
      expect(text(await client.callTool({ name: 'introduce', arguments: {} }))).toMatch(/"?Hello, Ada!"?$/);
    } finally {
      await client.close();
    }
  });

  it('over stateless HTTP, a 2025-11-25 client cannot be asked: the tool hears why', async () => {
    const client = await connectShared('http', 'legacy', { capabilities: { elicitation: { form: {} } } });
    try {
      expect(text(await client.callTool({ name: 'introduce', arguments: {} }))).toContain('not introduced: this server runs stateless over HTTP');
    } finally {
      await client.close();
    }
  });
});

describe('who may call the HTTP server, in the 2026-07-28 era too', () => {
  it.each([[[]], [['--sessions']]] as const)('checks Host, Origin, the bearer token and the body size before any era is served (%j)', async (extra) => {
    const url = await startHttp(workspace(), [...extra, '--auth-token-env', 'TW_E2E_TOKEN', '--max-body-bytes', '65536'], {
      ...process.env,
      TW_E2E_TOKEN: 'sesame',
    });
    const discover = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    const post = (headers: Record<string, string>, body = discover) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'server/discover',
          ...headers,
        },
        body,
      });
    const ok = await post({ authorization: 'Bearer sesame' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('supportedVersions');
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post({ authorization: 'Bearer sesame', origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ authorization: 'Bearer sesame' }, `${discover.slice(0, -1)}, "pad": "${'x'.repeat(70_000)}"}`)).status).toBe(413);
    // A rebound name (fetch cannot set Host): refused before the token is even looked at.
    const target = new URL(url);
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json' },
        },
        (response) => resolve(response.statusCode ?? 0),
      );
      request.on('error', reject);
      request.end(discover);
    });
    expect(rebound).toBe(403);
  });
});

describe('file_read of an image', () => {
  it.each([
    ['stdio', { pin: MODERN }],
    ['http', 'legacy'],
  ] as const)('reaches a client over %s (%j) as the image', async (transport, mode) => {
    const dir = workspace();
    const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);
    fs.writeFileSync(path.join(dir, 'chart.png'), png);
    const client = await connect(transport, dir, mode);
    try {
      const result = await client.callTool({ name: 'file_read', arguments: { path: 'chart.png' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([
        { type: 'text', text: 'chart.png: image/png, 12 bytes' },
        { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
      ]);
      // A text file still comes back as numbered lines, with its structured content.
      const text = await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } });
      expect(text.structuredContent).toMatchObject({ content: '1\talpha\n2\tbeta', totalLines: 2 });
    } finally {
      await client.close();
    }
  });
});

describe('a tool that returns content blocks', () => {
  it.each([
    ['stdio', { pin: MODERN }],
    ['stdio', 'legacy'],
    ['http', { pin: MODERN }],
    ['http', 'legacy'],
  ] as const)('reaches a client over %s (%j) as those blocks, with no output schema', async (transport, mode) => {
    const client = await connectShared(transport, mode);
    try {
      const listed = (await client.listTools()).tools.find((t) => t.name === 'snapshot')!;
      expect(listed.outputSchema).toBeUndefined();
      const result = await client.callTool({ name: 'snapshot', arguments: { page: 'home' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toEqual([
        { type: 'text', text: 'The page home:' },
        { type: 'image', data: Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]).toString('base64'), mimeType: 'image/png' },
        { type: 'resource_link', uri: 'https://example.com/home', name: 'home' },
      ]);
    } finally {
      await client.close();
    }
  });
});
