#!/usr/bin/env node
// Server CPU per MCP call over stdio, side by side in one run (figures, never assertions): the same no-op tool
// (`echo`, one string in, one object out) served by
//  - a bare v2 SDK server (`Server` of @modelcontextprotocol/server, served by `serveStdio`: the baseline),
//  - a bare v1 SDK `McpServer` (@modelcontextprotocol/sdk, 2025 era only),
//  - `toolwright serve -p` of a built project holding that tool (the executor's whole pipeline, the default durable
//    audit log),
// each driven by the v2 client in both protocol eras where the server speaks them. CPU is read from /proc (user +
// system of the server process) around the timed calls, after warm-up; rounds are interleaved.
// Goal (issue 19): Toolwright's CPU per call <= 1.3x the bare v2 server's.
// Usage: node tools/bench/mcp-server-cpu.mjs [--calls 2000] [--rounds 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { Client } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } } });
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const bin = path.join(root, 'packages/cli/dist/bin.js');
const work = path.join(import.meta.dirname, '.work', 'mcp-server-cpu');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(path.join(work, 'src'), { recursive: true });

// The project (inside the repository, so `@toolwright/*` resolves), built once: `serve -p` serves the build.
fs.writeFileSync(
  path.join(work, 'src', 'echo.ts'),
  `import { tool } from '@toolwright/tool';\n\n/** Echoes a text. */\nexport const echo = tool(async function echo(text: string): Promise<{ echoed: string }> {\n  return { echoed: text };\n}, { tier: 'read-only' });\n`,
);
fs.writeFileSync(
  path.join(work, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, outDir: 'dist', rootDir: 'src' },
    include: ['src'],
  }),
);
execFileSync(process.execPath, [bin, 'build', '-p', path.join(work, 'tsconfig.json')], { stdio: 'inherit' });
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-mcpcpu-'));

const echoTool = {
  name: 'echo',
  description: 'Echoes a text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'], additionalProperties: false },
};
const bareV2 = path.join(work, 'bare-v2.cjs');
fs.writeFileSync(
  bareV2,
  `const { Server } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/server'))});
const { serveStdio } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/server/stdio'))});
const tool = ${JSON.stringify(echoTool)};
serveStdio(() => {
  const server = new Server({ name: 'bare-v2', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools: [tool] }));
  server.setRequestHandler('tools/call', async (request) => {
    const echoed = String(request.params.arguments?.text ?? '');
    return { content: [{ type: 'text', text: JSON.stringify({ echoed }) }], structuredContent: { echoed } };
  });
  return server;
});\n`,
);
const bareV1 = path.join(work, 'bare-v1.cjs');
fs.writeFileSync(
  bareV1,
  `const { Server } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/index.js'))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/stdio.js'))});
const { CallToolRequestSchema, ListToolsRequestSchema } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/types.js'))});
const tool = ${JSON.stringify(echoTool)};
const server = new Server({ name: 'bare-v1', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const echoed = String(request.params.arguments?.text ?? '');
  return { content: [{ type: 'text', text: JSON.stringify({ echoed }) }], structuredContent: { echoed } };
});
void server.connect(new StdioServerTransport());\n`,
);

const servers = [
  { name: 'bare v2 Server (baseline)', args: [bareV2], eras: ['legacy', 'modern'] },
  { name: 'bare v1 Server', args: [bareV1], eras: ['legacy'] },
  {
    name: 'toolwright serve -p (durable audit)',
    args: [bin, 'serve', '--mcp', 'stdio', '--workspace', workspace, '-p', path.join(work, 'tsconfig.json')],
    eras: ['legacy', 'modern'],
  },
];

/** User + system CPU of a process so far, in ms (from /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(server, era) {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } });
  const transport = new StdioClientTransport({ command: process.execPath, args: server.args, cwd: workspace, stderr: 'ignore' });
  await client.connect(transport);
  // Each call's text differs: the same call repeated is what an agent stuck in a loop sends, and Toolwright's
  // repeated-call guard refuses it after three (the bench would then time refusals, not calls).
  const call = (i) => ({ name: 'echo', arguments: { text: `hello ${i}` } });
  for (let i = 0; i < 200; i++) await client.callTool(call(-i - 1));
  const pid = transport.pid;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const result = await client.callTool(call(i));
    if (result.isError) throw new Error(`${server.name}: call ${i} failed: ${JSON.stringify(result.content)}`);
  }
  const wallUs = ((performance.now() - started) / CALLS) * 1000;
  const cpuUs = ((cpuMs(pid) - cpuBefore) / CALLS) * 1000;
  await client.close();
  return { cpuUs, wallUs };
}

const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const server of servers) {
    for (const era of server.eras) {
      const key = `${server.name} · ${era === 'modern' ? '2026-07-28' : '2025-11-25'}`;
      const sample = await measure(server, era);
      results.set(key, [...(results.get(key) ?? []), sample]);
      process.stderr.write(`${key}: ${sample.cpuUs.toFixed(0)} µs CPU, ${sample.wallUs.toFixed(0)} µs wall per call\n`);
    }
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(
  `\nServer CPU per call over stdio (${process.version}, ${os.cpus().length} cpus, ${CALLS} sequential calls, median of ${ROUNDS} interleaved rounds)`,
);
console.log('| server · era | CPU µs/call | wall µs/call |');
console.log('| --- | ---: | ---: |');
const summary = {};
for (const [key, samples] of results) {
  summary[key] = { cpu: median(samples.map((s) => s.cpuUs)), wall: median(samples.map((s) => s.wallUs)) };
  console.log(`| ${key} | ${summary[key].cpu.toFixed(0)} | ${summary[key].wall.toFixed(0)} |`);
}
for (const era of ['2025-11-25', '2026-07-28']) {
  const ours = summary[`toolwright serve -p (durable audit) · ${era}`];
  const base = summary[`bare v2 Server (baseline) · ${era}`];
  if (ours && base) {
    const ratio = ours.cpu / base.cpu;
    console.log(`Goal ${era}: Toolwright CPU per call <= 1.3x bare v2: ${ratio.toFixed(2)}x -> ${ratio <= 1.3 ? 'met' : 'NOT met'}`);
  }
}
fs.rmSync(workspace, { recursive: true, force: true });
