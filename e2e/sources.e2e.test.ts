// The three tool sources from the CLI, as a user runs them: each example project is compiled by `toolwright -p`
// (the transformer emits the declarations from the type arguments), listed, and called through the executor.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO, toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sources-'));
  temporary.push(dir);
  return dir;
}

const example = (name: string) => path.join(REPO, 'examples', name);
const json = (text: string) => JSON.parse(text) as Record<string, any>;

/** The project's own tools as `toolwright list` prints them (the core tools are listed beside them). */
function listed(project: string): Record<string, any>[] {
  const result = toolwright(['list', '-p', project, '--format', 'json'], REPO);
  expect(result.status, result.output).toBe(0);
  return (json(result.stdout) as unknown as Record<string, any>[]).filter((tool) => tool.source?.runs);
}

function call(project: string, tool: string, args: unknown, dir = workspace()): Record<string, any> {
  const result = toolwright(['call', tool, '--args', JSON.stringify(args), '-p', project, '--workspace', dir, '--audit', 'none'], REPO);
  expect(result.stdout, result.output).not.toBe('');
  return json(result.stdout);
}

describe('a subprocess tool from the CLI', () => {
  it('is declared from its type argument and JSDoc, and runs the Python program', () => {
    const [tool] = listed(example('subprocess-tools'));
    expect(tool).toMatchObject({
      name: 'word_stats',
      parameters: { properties: { text: { type: 'string', description: 'The text to count.' } }, required: ['text'] },
      metadata: { tier: 'read-only', timeoutMs: 10_000, resources: { maxMemoryBytes: 128 * 1024 ** 2 } },
      source: { runs: 'subprocess', form: 'wrapper', exportName: 'wordStats' },
    });
    const report = call(example('subprocess-tools'), 'word_stats', { text: 'the cat and the hat\nthe end' });
    expect(report).toMatchObject({ status: 'completed', output: { words: 7, lines: 2, top: expect.arrayContaining([{ word: 'the', count: 3 }]) } });
    expect(report.output.top[0]).toEqual({ word: 'the', count: 3 });
  });

  it('answers arguments outside the signature with a correction, and runs nothing', () => {
    const report = call(example('subprocess-tools'), 'word_stats', { text: 42 });
    expect(report).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', details: { issues: [{ path: '$.text', kind: 'type' }] } } });
  });
});

describe('a WebAssembly tool from the CLI', () => {
  beforeAll(async () => {
    const { buildWasmModules } = (await import(path.join(REPO, 'tools/wasm/build-modules.mjs'))) as { buildWasmModules: () => Promise<void> };
    await buildWasmModules();
  }, 240_000);

  it('is declared from its type argument and runs the AssemblyScript module built from source', () => {
    const [tool] = listed(example('wasm-tools'));
    expect(tool).toMatchObject({ name: 'slugify', source: { runs: 'wasm' }, metadata: { tier: 'read-only', resources: { maxMemoryBytes: 16 * 1024 ** 2 } } });
    const report = call(example('wasm-tools'), 'slugify', { text: 'Hello, WebAssembly World!', maxLength: 40 });
    expect(report).toMatchObject({ status: 'completed', output: { slug: 'hello-webassembly-world' } });
  });
});

describe('source tools over MCP', () => {
  it('are listed with their declarations and called through `toolwright serve -p`', async () => {
    const dir = workspace();
    const client = new Client({ name: 'e2e-sources', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          path.join(REPO, 'packages/cli/dist/bin.js'),
          'serve',
          '--mcp',
          'stdio',
          '--workspace',
          dir,
          '--audit',
          'none',
          '-p',
          example('subprocess-tools'),
        ],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const wordStats = tools.find((tool) => tool.name === 'word_stats');
      expect(wordStats).toMatchObject({ inputSchema: { properties: { text: { type: 'string' } }, required: ['text'] }, annotations: { readOnlyHint: true } });
      const result = (await client.callTool({ name: 'word_stats', arguments: { text: 'one two two' } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        words: 3,
        lines: 1,
        top: [
          { word: 'two', count: 2 },
          { word: 'one', count: 1 },
        ],
      });
    } finally {
      await client.close();
    }
  });
});

describe('an HTTP tool from the CLI', () => {
  let server: ChildProcess | undefined;
  afterAll(() => server?.kill('SIGKILL'));

  it('POSTs the arguments to the endpoint through the SSRF-safe fetch', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [path.join(example('http-tools'), 'server.mjs')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    await listening(port);
    process.env.TEMPERATURE_URL = `http://127.0.0.1:${port}/convert-temperature`;
    try {
      const [tool] = listed(example('http-tools'));
      expect(tool).toMatchObject({ name: 'convert_temperature', source: { runs: 'http' }, parameters: { properties: { from: { enum: ['C', 'F'] } } } });
      const report = call(example('http-tools'), 'convert_temperature', { value: 100, from: 'C' });
      expect(report).toMatchObject({ status: 'completed', output: { value: 212, unit: 'F' } });
    } finally {
      delete process.env.TEMPERATURE_URL;
    }
  });

  it('reports an endpoint at an address it may not reach as a coded failure, without connecting', async () => {
    const port = await freePort();
    const seen: net.Socket[] = [];
    const trap = net.createServer((socket) => seen.push(socket.destroy()));
    await new Promise<void>((resolve) => trap.listen(port, '127.0.0.2', resolve));
    process.env.TEMPERATURE_URL = `http://127.0.0.2:${port}/convert-temperature`;
    try {
      const report = call(example('http-tools'), 'convert_temperature', { value: 1, from: 'F' });
      expect(report).toMatchObject({ status: 'error', error: { code: 'tool_failed', details: { errorCode: 'address_refused' } } });
      expect(seen).toHaveLength(0);
    } finally {
      delete process.env.TEMPERATURE_URL;
      trap.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function listening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.destroy() && true));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the example server did not listen on ${port}`);
}
