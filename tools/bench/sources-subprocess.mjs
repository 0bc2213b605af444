#!/usr/bin/env node
// Per-call overhead of a subprocess tool (figures, never assertions): the same word count called
//  1. in process, as an async function doing the same work;
//  2. as a bare child_process.spawn of the program (no limits, no sandbox, no watchdog): what a process costs here;
//  3. as a subprocess tool (source.subprocess of packages/sources/dist) inside the kernel sandbox (sandbox: 'required');
//  4. as a subprocess tool on the host (sandbox: 'off': process group, watchdog and rlimits only);
// for two programs: examples/subprocess-tools/tools/word_stats.py (python3) and /bin/cat (the tiniest program that
// speaks the protocol: it prints its arguments back). Rounds interleave the variants (each round runs every
// variant, in turn order rotated) so drift hits them alike; one warm-up round is not counted; median and p95 per call.
// Usage: npm run build (or npx tspc -b packages/sources), then node tools/bench/sources-subprocess.mjs [--rounds N] [--calls N]
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { source } = require(path.join(root, 'packages/sources/dist/index.js'));
const { probeSandbox } = require(path.join(root, 'packages/sandbox/dist/index.js'));

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, calls: { type: 'string', default: '5' } } });
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const TOOLS = path.join(root, 'examples/subprocess-tools/tools');
const PYTHON = '/usr/bin/python3';

const timeoutMs = 30_000;
const declaration = {
  name: 'word_stats',
  description: 'Counts the words and lines of a text, and its most frequent words.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  parameterOrder: ['text'],
  metadata: { tier: 'read-only', timeoutMs, sideEffects: [], capabilities: [], determinism: 'pure', resources: { timeoutMs }, parallel: true, tags: [] },
};
const TEXT = Array.from({ length: 20 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog, and the dog sleeps on.`).join('\n');

/** The same work in process: what word_stats.py computes. */
async function inProcess(text) {
  const words = (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).map((word) => word.toLowerCase());
  const counts = new Map();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
  return { words: words.length, lines: text.split('\n').length, top: top.map(([word, count]) => ({ word, count })) };
}

/** A bare spawn: the arguments on stdin, the JSON result from stdout. */
function bareSpawn(argv) {
  return (text) =>
    new Promise((resolve, reject) => {
      const child = spawn(argv[0], argv.slice(1), {
        cwd: TOOLS,
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`exit ${code}`))));
      child.stdin.end(JSON.stringify({ text }));
    });
}

const sandbox = await probeSandbox();
const programs = { python: [PYTHON, './word_stats.py'], cat: ['/bin/cat'] };
const variants = [{ name: 'in process (async function)', run: inProcess }];
for (const [label, argv] of Object.entries(programs)) {
  variants.push({ name: `${label}: bare spawn`, run: bareSpawn(argv) });
  if (sandbox.available)
    variants.push({ name: `${label}: subprocess tool, sandboxed`, run: source.subprocess(argv, { sandbox: 'required' }, declaration, TOOLS) });
  variants.push({ name: `${label}: subprocess tool, sandbox off`, run: source.subprocess(argv, { sandbox: 'off' }, declaration, TOOLS) });
}

// Each answers what it should before anything is timed.
const expected = JSON.stringify(await inProcess(TEXT));
for (const variant of variants) {
  const answer = JSON.stringify(await variant.run(TEXT));
  const wanted = variant.name.startsWith('cat') ? JSON.stringify({ text: TEXT }) : expected;
  if (answer !== wanted) throw new Error(`${variant.name} answered ${answer.slice(0, 200)}, not ${wanted.slice(0, 200)}`);
}

const samples = new Map(variants.map((variant) => [variant.name, []]));
for (let round = -1; round < ROUNDS; round++) {
  const order = variants.map((_, i) => variants[(i + Math.max(round, 0)) % variants.length]);
  for (const variant of order) {
    for (let call = 0; call < CALLS; call++) {
      const started = performance.now();
      await variant.run(TEXT);
      if (round >= 0) samples.get(variant.name).push(performance.now() - started);
    }
  }
}

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
console.log(
  `${os.cpus().length} CPUs, Node ${process.version}, ${sandbox.available ? sandbox.version : `no sandbox (${sandbox.reason})`}; ${ROUNDS} rounds × ${CALLS} calls per variant`,
);
const width = Math.max(...variants.map((variant) => variant.name.length));
console.log(`${'variant'.padEnd(width)}  ${'median'.padStart(9)}  ${'p95'.padStart(9)}`);
for (const variant of variants) {
  const list = samples.get(variant.name);
  console.log(`${variant.name.padEnd(width)}  ${format(quantile(list, 0.5)).padStart(9)}  ${format(quantile(list, 0.95)).padStart(9)}`);
}
