#!/usr/bin/env node
// Time from starting an MCP server over stdio to the answer of its first `tools/list`, side by side in one run
// (figures, never assertions), medians of --runs interleaved runs:
//  - a bare `McpServer` of the SDK with one tool (the floor: Node, the SDK, a handshake);
//  - `toolwright serve` (core tools only);
//  - `toolwright serve -p` of a project (e2e/basic-project's tools) whose last build is current: served as built;
//  - the same with its build removed before each run: compiled at start.
// Goal (issue 19): `serve -p` of a built project <= 0.5 s. Usage: node tools/bench/serve-start.mjs [--runs 7]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);
const bin = path.join(root, 'packages/cli/dist/bin.js');

// The project inside the repository (its `@toolwright/*` imports resolve from the repository's node_modules).
const project = path.join(import.meta.dirname, '.work', 'serve-start');
fs.rmSync(project, { recursive: true, force: true });
fs.cpSync(path.join(root, 'e2e/basic-project'), project, { recursive: true, filter: (source) => !/[\\/](dist|node_modules)$/.test(source) });
const cache = path.join(project, 'node_modules', '.cache', 'toolwright');
const bare = path.join(import.meta.dirname, '.work', 'bare-server.cjs');
fs.writeFileSync(
  bare,
  `const { McpServer } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/mcp.js'))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/stdio.js'))});
const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('noop', { description: 'Does nothing.' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
server.connect(new StdioServerTransport());\n`,
);

const routes = [
  ['bare McpServer (SDK, one tool)', () => [bare]],
  ['toolwright serve (core tools)', () => [bin, 'serve', '--mcp', 'stdio', '--workspace', project, '--audit', 'none']],
  ['toolwright serve -p, built (served as built)', () => [bin, 'serve', '--mcp', 'stdio', '-p', 'tsconfig.json', '--workspace', project, '--audit', 'none']],
  [
    'toolwright serve -p, not built (compiled at start)',
    () => {
      fs.rmSync(cache, { recursive: true, force: true });
      return [bin, 'serve', '--mcp', 'stdio', '-p', 'tsconfig.json', '--workspace', project, '--audit', 'none'];
    },
  ],
];

async function firstList(args) {
  const client = new Client({ name: 'bench', version: '1' });
  const started = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: project, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  if (tools.length === 0) throw new Error(`${args.join(' ')} listed no tools`);
  return { ms, tools: tools.length };
}

// Warm-up: one start of each (and a build for the "built" route).
for (const [, args] of routes) await firstList(args());
const samples = Object.fromEntries(routes.map(([name]) => [name, []]));
const counts = {};
for (let run = 0; run < runs; run++) {
  for (const [name, args] of routes) {
    const { ms, tools } = await firstList(args());
    samples[name].push(ms);
    counts[name] = tools;
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(2)}; ${runs} runs each, medians to the first tools/list`);
for (const [name] of routes) console.log(`${name.padEnd(52)} ${median(samples[name]).toFixed(0).padStart(6)} ms  (${counts[name]} tools)`);
const built = median(samples['toolwright serve -p, built (served as built)']);
console.log(`Goal serve -p of a built project <= 500 ms: ${built <= 500 ? 'met' : 'NOT met'} (${built.toFixed(0)} ms)`);
