#!/usr/bin/env node
// Per-call overhead of an HTTP tool (figures, never assertions): the example's temperature conversion called
//  1. in process, as an async function doing the same work;
//  2. with a bare node:http POST on a fresh connection (agent: false), as the HTTP tool connects;
//  3. with a bare node:http POST on a kept-alive connection (what the tool does not do: every call is judged afresh);
//  4. as an HTTP tool (source.http of packages/sources/dist): arguments to JSON, the SSRF-safe request, the answer
//     checked and parsed.
// The endpoint is examples/http-tools/server.mjs in its own process on 127.0.0.1. Rounds interleave the variants
// (each round runs every variant, in turn order rotated) so drift hits them alike; median and p95 per call.
// Usage: npm run build (or npx tsc -b packages/sources), then node tools/bench/sources-http.mjs [--rounds N] [--calls N]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { source } = require(path.join(root, 'packages/sources/dist/index.js'));

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' }, calls: { type: 'string', default: '100' } } });
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);

const server = spawn(process.execPath, [path.join(root, 'examples/http-tools/server.mjs')], {
  env: { PATH: process.env.PATH, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = await once(server.stdout, 'data');
const url = /(http:\/\/\S+)/.exec(line.toString())[1];

const timeoutMs = 5000;
const declaration = {
  name: 'convert_temperature',
  description: 'Converts a temperature between Celsius and Fahrenheit.',
  parameters: {
    type: 'object',
    properties: { value: { type: 'number' }, from: { type: 'string', enum: ['C', 'F'] } },
    required: ['value', 'from'],
    additionalProperties: false,
  },
  parameterOrder: ['value', 'from'],
  metadata: {
    tier: 'read-only',
    timeoutMs,
    sideEffects: [],
    capabilities: [],
    determinism: 'pure',
    resources: { timeoutMs },
    parallel: true,
    tags: [],
  },
};
const httpTool = source.http(url, { allowAddresses: ['127.0.0.1'] }, declaration);

/** The same work in process: what the endpoint computes. */
async function inProcess(value, from) {
  return from === 'C' ? { value: (value * 9) / 5 + 32, unit: 'F' } : { value: ((value - 32) * 5) / 9, unit: 'C' };
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
function barePost(agent) {
  return (value, from) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ value, from });
      const request = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}

const variants = [
  { label: 'in-process async function', call: inProcess },
  { label: 'bare node:http POST, fresh connection', call: barePost(false) },
  { label: 'bare node:http POST, kept-alive connection', call: barePost(keepAlive) },
  { label: 'HTTP tool (source.http)', call: httpTool },
];

// Every variant must agree with the in-process answer before it is timed.
for (const { label, call } of variants) {
  const got = await call(100, 'C');
  if (got.value !== 212 || got.unit !== 'F') throw new Error(`${label} answered ${JSON.stringify(got)}`);
}
for (const { call } of variants) for (let i = 0; i < 200; i++) await call(i, i % 2 ? 'C' : 'F'); // warm-up

const samples = new Map(variants.map((v) => [v.label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const { label, call } = variants[(round + k) % variants.length];
    const times = samples.get(label);
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await call(i, i % 2 ? 'C' : 'F');
      times.push(performance.now() - started);
    }
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = variants.map(({ label }) => {
  const sorted = samples.get(label).sort((a, b) => a - b);
  return { label, median: quantile(sorted, 0.5) * 1000, p95: quantile(sorted, 0.95) * 1000 };
});
const base = stats[0].median;
console.log(
  `\nHTTP tool overhead (node ${process.version}, ${os.cpus().length} cores, ${ROUNDS} rounds x ${CALLS} calls per variant, endpoint in its own process)`,
);
console.log('| variant | median µs/call | p95 µs/call | median over in-process µs |');
console.log('| --- | ---: | ---: | ---: |');
for (const s of stats) console.log(`| ${s.label} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${(s.median - base).toFixed(1)} |`);
const fresh = stats[1].median;
console.log(`\nThe tool's own cost over a bare POST on a fresh connection: ${(stats[3].median - fresh).toFixed(1)} µs/call (median).`);

keepAlive.destroy();
server.kill();
await once(server, 'exit');
