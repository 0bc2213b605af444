// `toolwright serve --defer`: the v2 MCP SDK's client lists the tools that are not deferred and tool_search, is told to
// search for a deferred tool it calls, searches, hears list_changed, lists the tool and calls it — over stdio in both
// protocol eras and over HTTP with sessions.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolwright } from './support/run.js';
import { CLI as BIN, ServeHarness } from './support/serve-http.js';

const PROJECT = path.join(__dirname, 'mcp-project', 'tsconfig.json');
const MODERN = '2026-07-28';
const DEFER = ['--defer', 'file_*,web_*', '--defer', 'countdown'];
const harness = new ServeHarness();
afterAll(() => harness.cleanUp());

const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

type Transport = 'stdio' | 'http-sessions';

/** A v2 client of `toolwright serve --defer ...`, recording each tool list it re-lists on list_changed. */
async function connect(transport: Transport, dir: string, mode: 'legacy' | { pin: string }) {
  const heard: string[][] = [];
  const client = new Client(
    { name: 'e2e-defer', version: '1.0.0' },
    { versionNegotiation: { mode }, listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => heard.push((tools ?? []).map((t) => t.name)) } } },
  );
  const args = ['--workspace', dir, '-p', PROJECT, ...DEFER];
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--mcp', 'stdio', ...args], cwd: dir, stderr: 'pipe' }));
  } else {
    const { url } = await harness.startHttp(dir, ['--sessions', ...args]);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }
  return { client, heard };
}

describe.each([
  ['stdio', 'legacy'],
  ['stdio', { pin: MODERN }],
  ['http-sessions', 'legacy'],
] as const)('toolwright serve --defer over %s (%j)', (transport, mode) => {
  it('lists tool_search instead of the deferred tools, refuses them until a search loads them, then lists and runs them', async () => {
    const dir = harness.folder('tw-mcp-defer-', { 'notes.txt': 'alpha\nbeta\n' });
    const { client, heard } = await connect(transport, dir, mode);
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain('tool_search');
      expect(listed).toContain('shell_exec');
      expect(listed).toContain('introduce'); // a project tool the globs leave alone
      expect(listed.filter((name) => /^(file_|web_)|^countdown$/.test(name))).toEqual([]);

      const refused = await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("'file_read' is not loaded yet");

      const found = await client.callTool({ name: 'tool_search', arguments: { query: 'file_read', limit: 1 } });
      expect(text(found)).toMatch(/^## file_read\n/);
      await expect.poll(() => heard.at(-1) ?? [], { timeout: 10_000 }).toContain('file_read');
      const relisted = (await client.listTools()).tools.map((t) => t.name);
      expect(relisted).toContain('file_read');
      expect(relisted).not.toContain('file_write'); // only what the search found

      const read = await client.callTool({ name: 'file_read', arguments: { path: 'notes.txt' } });
      expect(read.isError).toBeFalsy();
      expect(text(read)).toContain('alpha');
    } finally {
      await client.close();
    }
    const records = fs
      .readdirSync(path.join(dir, '.toolwright'))
      .filter((f) => f.startsWith('audit-serve-'))
      .flatMap((file) => fs.readFileSync(path.join(dir, '.toolwright', file), 'utf8').split('\n'))
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { type: string; code?: string });
    expect(records.filter((r) => r.type === 'ToolCallRejected').map((r) => r.code)).toEqual(['tool_not_loaded']);
  });
});

describe('toolwright serve --defer usage', () => {
  it('refuses a glob that names no tool as a usage error', () => {
    const dir = harness.folder('tw-mcp-defer-usage-');
    const result = toolwright(['serve', '--mcp', 'stdio', '--workspace', dir, '--defer', 'file read'], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--defer: "file read" is not a glob of tool names');
  });
});
