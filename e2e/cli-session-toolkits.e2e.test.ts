// `tools.perSession` in toolwright.config.json: a project's stateful toolkit gets one instance per MCP session.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO, toolwright } from './support/run.js';
import { ServeHarness } from './support/serve-http.js';

const BIN = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const PROJECT = path.join(__dirname, 'session-project', 'tsconfig.json');
const harness = new ServeHarness();
afterAll(() => harness.cleanUp());

/** A workspace holding only a config file. */
function workspace(config: unknown): string {
  return harness.folder('tw-per-session-', { 'toolwright.config.json': JSON.stringify(config) });
}

const PER_SESSION = { audit: 'none', tools: { core: false, perSession: ['Tally'] } };

function startHttp(dir: string, extra: string[]): Promise<{ url: string; child: ChildProcess }> {
  return harness.startHttp(dir, ['-p', PROJECT, ...extra]);
}

async function bump(client: Client, name: 'tally_bump' | 'shared_bump'): Promise<{ instance: number; count: number }> {
  const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as { instance: number; count: number };
}

describe('tools.perSession', () => {
  it('over HTTP with sessions: each MCP session has its own instance, kept across its calls and disposed of when it ends; other toolkits stay one per process', async () => {
    const dir = workspace(PER_SESSION);
    const { url, child } = await startHttp(dir, ['--sessions']);
    const disposed = () =>
      fs.existsSync(path.join(dir, 'disposed.txt')) ? fs.readFileSync(path.join(dir, 'disposed.txt'), 'utf8').trim().split('\n').map(Number) : [];
    const connect = async () => {
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      return { client, transport };
    };
    const a = await connect();
    const b = await connect();
    const a1 = await bump(a.client, 'tally_bump');
    const a2 = await bump(a.client, 'tally_bump');
    const b1 = await bump(b.client, 'tally_bump');
    expect(a2).toEqual({ instance: a1.instance, count: 2 });
    expect(b1.count).toBe(1);
    expect(b1.instance).not.toBe(a1.instance);
    expect((await bump(a.client, 'tally_bump')).count).toBe(3);
    // SharedTally is not listed: one instance for every session.
    const s1 = await bump(a.client, 'shared_bump');
    expect(await bump(b.client, 'shared_bump')).toEqual({ instance: s1.instance, count: s1.count + 1 });
    // A session that ends takes its instance with it (disposed of); a new session starts from a new one.
    expect(disposed()).toEqual([]);
    await a.transport.terminateSession();
    await a.client.close();
    await expect.poll(disposed).toEqual([a1.instance]);
    const c = await connect();
    const c1 = await bump(c.client, 'tally_bump');
    expect(c1.count).toBe(1);
    expect([a1.instance, b1.instance]).not.toContain(c1.instance);
    expect((await bump(b.client, 'tally_bump')).count).toBe(2);
    // Stopping the server ends the remaining sessions, disposing of their instances.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(disposed().sort()).toEqual([a1.instance, b1.instance, c1.instance].sort());
    await Promise.all([b.client.close(), c.client.close()]);
  });

  it('over stdio (one client per process): the session keeps one instance across calls', async () => {
    const dir = workspace(PER_SESSION);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--mcp', 'stdio', '-p', PROJECT], cwd: dir, stderr: 'pipe' }),
    );
    try {
      const first = await bump(client, 'tally_bump');
      expect(await bump(client, 'tally_bump')).toEqual({ instance: first.instance, count: 2 });
    } finally {
      await client.close();
    }
  });

  it.for([
    [
      'a name the project does not export',
      { tools: { perSession: ['Taly'] } },
      `$.tools.perSession[0]: "Taly" is not a toolkit class exported by ${PROJECT}; its toolkit classes are: Tally, SharedTally, Configured`,
    ],
    [
      'a toolkit whose constructor takes arguments',
      { tools: { perSession: ['Tally', 'Configured'] } },
      "$.tools.perSession[1]: Configured's constructor takes arguments, so toolwright cannot make one per session",
    ],
    ['a list that is no list', { tools: { perSession: 'Tally' } }, '$.tools.perSession: must be an array of strings (found "Tally")'],
  ] as const)('refuses %s, naming the file and the key', ([, config, message]) => {
    const dir = workspace(config);
    const result = toolwright(['list', '-p', PROJECT, '--no-core'], dir);
    expect(result.status, result.output).toBe(2);
    expect(result.stderr).toContain(`${path.join(dir, 'toolwright.config.json')}: ${message}`);
  });

  it('refuses stateless HTTP, which has no sessions to keep instances for', () => {
    const dir = workspace(PER_SESSION);
    const result = toolwright(['serve', '--mcp', 'http', '--port', '0', '-p', PROJECT], dir);
    expect(result.status, result.output).toBe(2);
    expect(result.stderr).toContain(
      `${path.join(dir, 'toolwright.config.json')}: $.tools.perSession: Tally keeps an instance per session, but stateless HTTP has no sessions; serve with --sessions (or --mcp stdio).`,
    );
  });

  it('has no effect without a project, and says so', () => {
    const result = toolwright(['list'], workspace(PER_SESSION));
    expect(result.status, result.output).toBe(0);
    expect(result.stderr).toContain('$.tools.perSession names toolkit classes of a project, but no --project is given; it has no effect.');
  });
});
