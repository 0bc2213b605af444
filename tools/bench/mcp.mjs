#!/usr/bin/env node
// MCP overhead, side by side in one run (figures, never assertions):
//  1. a no-op read-only tool: in-process executor call vs a full MCP round trip over stdio
//     (the official SDK client driving `toolwright serve --mcp stdio`), sequential calls, per-call time;
//  2. calls/s of the Streamable HTTP server with one process and with two behind a round-robin balancer
//     (concurrent clients).
// Usage: node tools/bench/mcp.mjs [--calls N] [--concurrency C]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ToolRegistry } = require(path.join(root, 'packages/registry/dist/index.js'));
const { ToolExecutor, MemoryAuditSink } = require(path.join(root, 'packages/executor/dist/index.js'));
const core = require(path.join(root, 'packages/core-tools/dist/index.js'));

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' } } });
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const bin = path.join(root, 'packages/cli/dist/bin.js');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-mcp-'));
fs.writeFileSync(path.join(workspace, 'a.txt'), 'x\n');
// The no-op tool: file_list of a one-file directory (read-only, cheap). The in-process run uses the same tool. Each
// call's arguments differ (an `exclude` pattern that matches nothing): the same call repeated is what an agent stuck
// in a loop sends, and the repeated-call guard refuses it after three — the bench would then time refusals.
let sequence = 0;
const call = () => ({ name: 'file_list', arguments: { path: '.', exclude: [`nothing-${sequence++}.tmp`] } });
console.log(`node ${process.version}, ${os.cpus().length} cpus; ${CALLS} calls of file_list {"path":".","exclude":["nothing-<n>.tmp"]}`);

const registry = new ToolRegistry();
core.registerCoreTools(registry, { workspace: new core.WorkspacePolicy({ root: workspace }) });
const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink() });
const checked = (result) => {
  const failed = result.status === 'error' || result.isError;
  if (failed) throw new Error(`a benchmark call failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
};
const inProcessCall = (id) => {
  const { name, arguments: args } = call();
  return executor.executeToolCall({ id, name, arguments: JSON.stringify(args) }).then(checked);
};
for (let i = 0; i < 200; i++) await inProcessCall(`w${i}`);
let t = performance.now();
for (let i = 0; i < CALLS; i++) await inProcessCall(`c${i}`);
const inProcess = (performance.now() - t) / CALLS;

const stdio = new Client({ name: 'bench', version: '1' });
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve', '--mcp', 'stdio', '--workspace', workspace, '--audit', 'none'],
    cwd: workspace,
    stderr: 'ignore',
  }),
);
for (let i = 0; i < 200; i++) checked(await stdio.callTool(call()));
t = performance.now();
for (let i = 0; i < CALLS; i++) checked(await stdio.callTool(call()));
const overStdio = (performance.now() - t) / CALLS;
await stdio.close();
console.log(
  `\n1. per call, sequential: in-process executor ${(inProcess * 1000).toFixed(0)} µs; MCP over stdio ${(overStdio * 1000).toFixed(0)} µs (+${((overStdio - inProcess) * 1000).toFixed(0)} µs, ${(overStdio / inProcess).toFixed(1)}x)`,
);

async function startHttp() {
  const child = spawn(process.execPath, [bin, 'serve', '--mcp', 'http', '--port', '0', '--workspace', workspace, '--audit', 'none'], {
    cwd: workspace,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      const m = /at (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url };
}

async function throughput(url) {
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      return c;
    }),
  );
  const per = Math.ceil(CALLS / CONCURRENCY);
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < 20; i++) checked(await c.callTool(call()));
    }),
  );
  const start = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < per; i++) checked(await c.callTool(call()));
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  return (per * CONCURRENCY) / seconds;
}

const one = await startHttp();
const single = await throughput(one.url);
const two = await startHttp();
let next = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const balancer = http.createServer((req, res) => {
  const target = new URL([one.url, two.url][next++ % 2]);
  const upstream = http.request(
    { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: { ...req.headers, host: target.host }, agent },
    (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    },
  );
  req.pipe(upstream);
});
await new Promise((resolve) => balancer.listen(0, '127.0.0.1', resolve));
const double = await throughput(`http://127.0.0.1:${balancer.address().port}/mcp`);
console.log(
  `2. Streamable HTTP, ${CONCURRENCY} concurrent clients: one process ${single.toFixed(0)} calls/s; two processes behind a balancer ${double.toFixed(0)} calls/s (${(double / single).toFixed(2)}x; this machine has ${os.cpus().length} cores, shared with the clients and the balancer)`,
);
balancer.close();
agent.destroy();
one.child.kill();
two.child.kill();
fs.rmSync(workspace, { recursive: true, force: true });
