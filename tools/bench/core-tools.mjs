#!/usr/bin/env node
// Core tools speed and memory, side by side in one run (figures, never assertions):
//  1. file_search vs ripgrep on a large tree (default: this repository's node_modules), medians of
//     --runs runs: `rg` itself with the same flags, file_search on its ripgrep engine, and on its
//     built-in engine. Goal: file_search <= 1.5x ripgrep. Needs `rg` on PATH (apt-get install ripgrep).
//  2. shell_exec of --gigabytes of output: resident memory growth while it streams (goal <= 64 MB)
//     and throughput vs the same pipeline into `> /dev/null` in bash.
// Usage: node tools/bench/core-tools.mjs [--tree dir] [--runs N] [--gigabytes G]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const core = require(path.join(root, 'packages/core-tools/dist/index.js'));
const { values } = parseArgs({
  options: {
    tree: { type: 'string', default: path.join(root, 'node_modules') },
    runs: { type: 'string', default: '5' },
    gigabytes: { type: 'string', default: '1' },
  },
});
const RUNS = Number(values.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  const r = await fn();
  return { ms: performance.now() - t, r };
};

console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${(await import('node:os')).cpus().length} cpus`);

// 1. file_search vs ripgrep
const rgAvailable = spawnSync('rg', ['--version']).status === 0;
const tree = path.resolve(values.tree);
const workspace = new core.WorkspacePolicy({ root: tree });
const searches = [
  { label: 'literal "createProgram"', pattern: 'createProgram', literal: true },
  { label: 'regex "function\\s+\\w+Sync\\("', pattern: 'function\\s+\\w+Sync\\(', literal: false },
];
console.log(`\n1. file_search on ${tree} (median of ${RUNS} runs, ms)`);
if (!rgAvailable) console.log('   ripgrep is not installed: only the built-in engine is measured (apt-get install ripgrep to compare)');
for (const s of searches) {
  const row = { search: s.label };
  if (rgAvailable) {
    const rgArgs = [
      '--no-heading',
      '--with-filename',
      '--line-number',
      '--null',
      '--color',
      'never',
      '--hidden',
      '--no-require-git',
      '--no-ignore-global',
      '--no-ignore-parent',
      '--no-ignore-dot',
      '--no-ignore-exclude',
      '--no-config',
      '--max-filesize',
      String(10 * 1024 * 1024),
      '-g',
      '!.git',
      '--case-sensitive',
      ...(s.literal ? ['--fixed-strings'] : []),
      '--regexp',
      s.pattern,
      './',
    ];
    const rgTimes = [];
    let rgLines = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const out = spawnSync('rg', rgArgs, { cwd: tree, maxBuffer: 1 << 30 });
      rgTimes.push(performance.now() - t);
      rgLines = out.stdout.toString().split('\n').filter(Boolean).length;
    }
    row.ripgrep = median(rgTimes);
    row.matches = rgLines;
    const tool = new core.FileSearchTool({ workspace, ripgrep: 'rg' });
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push((await time(() => tool.fileSearch(s.pattern, '.', s.literal, 'sensitive', [], [], 0, 5000))).ms);
    row['file_search (ripgrep engine)'] = median(times);
    row['ratio vs rg'] = row['file_search (ripgrep engine)'] / row.ripgrep;
  }
  const builtin = new core.FileSearchTool({ workspace, ripgrep: false });
  const times = [];
  let result;
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
    const t = await time(() => builtin.fileSearch(s.pattern, '.', s.literal, 'sensitive', [], [], 0, 5000));
    times.push(t.ms);
    result = t.r;
  }
  row['file_search (built-in engine)'] = median(times);
  if (row.ripgrep) row['built-in vs rg'] = row['file_search (built-in engine)'] / row.ripgrep;
  row['files with matches'] = result.files;
  console.log(
    Object.entries(row)
      .map(([k, v]) => `   ${k}: ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(2)) : v}`)
      .join('\n'),
  );
}

// 2. shell_exec flood
const bytes = Math.round(Number(values.gigabytes) * 1024 ** 3);
const command = `yes 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ | head -c ${bytes}`;
console.log(`\n2. shell_exec of ${values.gigabytes} GB of output: ${command}`);
const baseline = await time(() => spawnSync('/bin/bash', ['--noprofile', '--norc', '-c', `${command} > /dev/null`]));
const shell = new core.ShellTool({
  workspace: new core.WorkspacePolicy({ root }),
  shell: { backend: 'host', timeoutMs: 600_000, policy: { allow: ['yes', 'head'] } },
});
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const run = await time(() => shell.shellExec(command, 600));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const mbps = (ms) => (bytes / 1024 ** 2 / (ms / 1000)).toFixed(0);
console.log(`   bash > /dev/null: ${baseline.ms.toFixed(0)} ms (${mbps(baseline.ms)} MB/s)`);
console.log(
  `   shell_exec captured: ${run.ms.toFixed(0)} ms (${mbps(run.ms)} MB/s), ${(run.ms / baseline.ms).toFixed(2)}x; stdoutBytes ${run.r.stdoutBytes}, kept ${Buffer.byteLength(run.r.stdout)} bytes`,
);
console.log(
  `   resident memory: before ${(rssBefore / 1024 ** 2).toFixed(1)} MB, peak ${(peak / 1024 ** 2).toFixed(1)} MB, growth ${((peak - rssBefore) / 1024 ** 2).toFixed(1)} MB (goal <= 64 MB)`,
);
