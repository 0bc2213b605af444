#!/usr/bin/env node
// The WebAssembly runner of @toolwright/sources, measured (figures, never assertions):
//  1. cold start: the first call in a fresh process (module read, rewritten, compiled; worker thread
//     started), and in a warm process after the module cache and the worker pool are emptied;
//  2. warm calls vs an in-process JavaScript function doing the same work (word count), interleaved
//     rounds, median and p95;
//  3. the compute budget: how fast a tight loop burns fuel, and how long the default budget lasts;
//  4. how long a runaway loop takes to stop once its call is aborted.
// Needs the build: npx tspc -b packages/sources (the modules are built here from source if stale).
// Usage: node tools/bench/sources-wasm.mjs [--rounds N] [--cold N]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildWasmModules } from '../wasm/build-modules.mjs';

/* global AbortSignal, WebAssembly */

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'packages/sources/dist/wasm');
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '300' }, cold: { type: 'string', default: '8' }, child: { type: 'boolean', default: false } },
});
const module = (name) => path.join(root, 'packages/sources/test-modules/build', `${name}.wasm`);

function request(target, input, options = {}, timeoutMs = 30_000) {
  const declaration = {
    name: 'word_count',
    description: 'Counts words.',
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    parameterOrder: [],
    metadata: { tier: 'read-only', timeoutMs, sideEffects: [], capabilities: [], determinism: 'pure', resources: { timeoutMs }, parallel: true, tags: [] },
  };
  return { tool: 'word_count', target, options, declaration, input, signal: options.signal ?? AbortSignal.timeout(timeoutMs), context: undefined };
}

const { runWasm } = require(path.join(dist, 'run-wasm.js'));

if (values.child) {
  // One fresh process: its first call and its second.
  const started = performance.now();
  await runWasm(request(module('word-count'), { text: 'one two three' }));
  const first = performance.now() - started;
  const again = performance.now();
  await runWasm(request(module('word-count'), { text: 'one two three' }));
  console.log(JSON.stringify({ first, second: performance.now() - again }));
  process.exit(0);
}

const { clearModuleCache } = require(path.join(dist, 'module-cache.js'));
const { stopIdleWorkers } = require(path.join(dist, 'worker-pool.js'));
const { prepareModule } = require(path.join(dist, 'binary/prepare-module.js'));
const fs = await import('node:fs');

await buildWasmModules({ log: (line) => console.log(line) });
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(3));
const row = (label, xs) => console.log(`   ${label.padEnd(50)} ${ms(quantile(xs, 0.5)).padStart(9)} ${ms(quantile(xs, 0.95)).padStart(9)}`);
const header = () => console.log(`   ${''.padEnd(50)} ${'median'.padStart(9)} ${'p95'.padStart(9)}   (ms)`);

console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${os.cpus().length} cpus`);

// 1. Cold start
const COLD = Number(values.cold);
console.log(`\n1. cold start (${COLD} fresh processes; ${COLD * 3} in-process cold rounds)`);
header();
const children = [];
for (let i = 0; i < COLD; i++) {
  const child = spawnSync(process.execPath, [import.meta.filename, '--child'], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  children.push(JSON.parse(child.stdout.trim().split('\n').at(-1)));
}
row(
  'first call in a fresh process',
  children.map((c) => c.first),
);
row(
  'second call in that process',
  children.map((c) => c.second),
);
const bytes = fs.readFileSync(module('word-count'));
const prepare = [];
const compile = [];
const coldCall = [];
const warmAfterCold = [];
for (let i = 0; i < COLD * 3; i++) {
  let t = performance.now();
  const prepared = prepareModule(bytes, 1024);
  prepare.push(performance.now() - t);
  t = performance.now();
  await WebAssembly.compile(prepared.bytes);
  compile.push(performance.now() - t);
  clearModuleCache();
  await stopIdleWorkers();
  t = performance.now();
  await runWasm(request(module('word-count'), { text: 'one two three' }));
  coldCall.push(performance.now() - t);
  t = performance.now();
  await runWasm(request(module('word-count'), { text: 'one two three' }));
  warmAfterCold.push(performance.now() - t);
}
row(`rewrite (fuel, caps) of a ${(bytes.length / 1024).toFixed(1)} KiB module`, prepare);
row('compile the rewritten module', compile);
row('cold call: compile + start a worker + call', coldCall);
row('the next call (warm)', warmAfterCold);

// 2. Warm calls vs JavaScript, interleaved
function wordCount(text) {
  let words = 0;
  let lines = text.length > 0 ? 1 : 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    if (c === 0x0a) lines++;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return { words, lines, chars: text.length, text };
}
/** The same rewritten module called on this thread, no worker: what the module's own code costs. */
const inThread = new WebAssembly.Module(prepareModule(bytes, 1024).bytes);
function callInThread(text) {
  const exports = new WebAssembly.Instance(inThread, { env: { abort: () => {} }, toolwright: { log: () => {} } }).exports;
  exports.__toolwright_fuel.value = 1_000_000_000n;
  exports.__toolwright_start?.();
  const input = new TextEncoder().encode(JSON.stringify({ text }));
  const pointer = exports.alloc(input.length) >>> 0;
  new Uint8Array(exports.memory.buffer, pointer, input.length).set(input);
  const packed = exports.call(pointer, input.length);
  const result = new Uint8Array(exports.memory.buffer, Number(packed >> 32n), Number(packed & 0xffffffffn));
  return JSON.parse(new TextDecoder().decode(result));
}
const ROUNDS = Number(values.rounds);
for (const [label, text] of [
  ['small input (13 chars)', 'one two three'],
  ['100 KiB input', 'lorem ipsum dolor\n'.repeat(5_700)],
]) {
  const wasm = [];
  const js = [];
  const bare = [];
  for (let i = 0; i < 20; i++) await runWasm(request(module('word-count'), { text }));
  for (let i = 0; i < ROUNDS; i++) {
    // The JS function goes through the same async call and JSON round trip a tool result takes.
    let t = performance.now();
    await runWasm(request(module('word-count'), { text }));
    wasm.push(performance.now() - t);
    t = performance.now();
    JSON.parse(JSON.stringify(await (async () => wordCount(JSON.parse(JSON.stringify({ text })).text))()));
    js.push(performance.now() - t);
    t = performance.now();
    callInThread(text);
    bare.push(performance.now() - t);
  }
  console.log(`\n2. warm calls, ${label} (${ROUNDS} interleaved rounds)`);
  header();
  row('WebAssembly tool (worker, fresh instance)', wasm);
  row('the same module on this thread, no runner', bare);
  row('in-process JavaScript function', js);
  row(
    "runner's overhead (tool - module on this thread)",
    wasm.map((w, i) => w - bare[i]),
  );
  row(
    'tool - JavaScript function',
    wasm.map((w, i) => w - js[i]),
  );
}

// 3. Fuel
console.log('\n3. the compute budget (a tight loop: one fuel per iteration)');
header();
const burn = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  await runWasm(request(module('spin'), {}, { fuel: 100_000_000 })).catch((error) => {
    if (error.limit !== 'fuel') throw error;
  });
  burn.push(performance.now() - t);
}
row('100,000,000 fuel spent', burn);
console.log(
  `   -> ${(100 / (quantile(burn, 0.5) / 1000)).toFixed(0)} M fuel/s; the default budget (1e9) lasts ~${((quantile(burn, 0.5) * 10) / 1000).toFixed(1)} s of such a loop`,
);

// 4. Stopping a runaway
console.log('\n4. a runaway loop stopped by its signal (abort after 50 ms)');
header();
const stops = [];
for (let i = 0; i < 5; i++) {
  const controller = new AbortController();
  const running = runWasm(request(module('spin'), {}, { fuel: Number.MAX_SAFE_INTEGER, signal: controller.signal }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const t = performance.now();
  controller.abort();
  await running.catch(() => undefined);
  stops.push(performance.now() - t);
}
row('abort -> call rejected, worker terminated', stops);
await stopIdleWorkers();
