#!/usr/bin/env node
// Build-time benchmark, every route side by side in one run, on generated projects of 100/500/2,000
// tools. Medians of --runs runs after one warm-up. Prints a table and which goals were met.
// Usage: node tools/bench/build-time.mjs [--sizes 100,500,2000] [--runs 3] [--corpus realistic|simple] [--shared 0..1] [--routes tsc,tspc] [--no-watch]
//   --corpus: the generated project (see generate-project.mjs); --shared: the realistic corpus's share of tools whose
//   signatures use shared, imported, recursive and tagged types (default 1: all); --routes: only the routes whose name
//   contains one of these words; runs are interleaved (each run times every route once, in turn).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateProject } from './generate-project.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const work = path.join(import.meta.dirname, '.work');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,500,2000' },
    runs: { type: 'string', default: '3' },
    corpus: { type: 'string', default: 'realistic' },
    shared: { type: 'string', default: '1' },
    routes: { type: 'string' },
    'no-watch': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const corpusOptions = { corpus: values.corpus, shared: Number(values.shared) };
const runs = Number(values.runs);
const node = process.execPath;
const tscBin = path.join(root, 'node_modules/typescript/bin/tsc');
const tspcBin = path.join(root, 'node_modules/ts-patch/bin/tspc.js');
const cli = path.join(root, 'packages/cli/dist/bin.js');

// A compiler patched once with `ts-patch install`, on a copy (the shared node_modules stays untouched).
const patchedTs = path.join(work, 'patched', 'node_modules', 'typescript');
if (!fs.existsSync(path.join(patchedTs, 'lib', 'tsc.js')) || !fs.readFileSync(path.join(patchedTs, 'lib', '_tsc.js'), 'utf8').includes('tsp')) {
  fs.rmSync(path.join(work, 'patched'), { recursive: true, force: true });
  fs.mkdirSync(path.dirname(patchedTs), { recursive: true });
  fs.cpSync(path.join(root, 'node_modules/typescript'), patchedTs, { recursive: true });
  const install = spawnSync(node, [path.join(root, 'node_modules/ts-patch/bin/ts-patch.js'), 'install', '-s', '--dir', patchedTs], { encoding: 'utf8' });
  if (install.status !== 0) console.error('ts-patch install on the copy failed:', install.stdout, install.stderr);
}

function time(args, cwd) {
  const started = performance.now();
  const result = spawnSync(node, args, { cwd, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed in ${cwd}:\n${result.stdout}${result.stderr}`);
  return ms;
}
function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const tjsgScript = path.join(work, 'tjsg.cjs');
fs.mkdirSync(work, { recursive: true });
fs.writeFileSync(
  tjsgScript,
  `const { createGenerator } = require(${JSON.stringify(require.resolve('ts-json-schema-generator'))});
const [, , dir] = process.argv;
const schema = createGenerator({ path: dir + '/src/args.ts', tsconfig: dir + '/tsconfig.plain.json', type: '*', skipTypeCheck: true, expose: 'export', jsDoc: 'extended' }).createSchema('*');
if (Object.keys(schema.definitions).length === 0) process.exit(1);\n`,
);

// TypeScript 7 (tools/typescript-7/7.0, installed by `npm test` or `node tools/typescript-7/install.mjs`): the same
// project beside it resolves it as its `typescript`, as a TS 7 project would.
const typescript7 = path.join(root, 'tools/typescript-7/7.0/node_modules/typescript');
const tsgoBin = path.join(typescript7, 'bin/tsc');
const hasTypescript7 = fs.existsSync(path.join(typescript7, 'package.json'));
const ts7 = (dir) => `${dir}-ts7`;
const ts7route = (dir) => `${dir}-ts7route`;
// 7.1 (beta), whose API answers many questions in one round trip (`batch()`): the same project beside it.
const typescript71 = path.join(root, 'tools/typescript-7/7.1/node_modules/typescript');
const hasTypescript71 = hasTypescript7 && fs.existsSync(path.join(typescript71, 'package.json'));
const ts71 = (dir) => `${dir}-ts71`;
const EMIT_71 = 'toolwright emit --typescript 7 on 7.1 beta (batched API)';
const emitAndTsgo = path.join(work, 'emit-and-tsgo.cjs');
fs.mkdirSync(work, { recursive: true });
fs.writeFileSync(
  emitAndTsgo,
  `const { spawnSync } = require('node:child_process');
for (const args of [[${JSON.stringify(cli)}, 'emit', '-p', 'tsconfig.plain.json', '--module', 'src/tools.generated.ts'], [${JSON.stringify(tsgoBin)}, '-p', 'tsconfig.plain.json']]) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}\n`,
);

const allRoutes = [
  ['node + require("typescript") only', () => [['-e', 'require("typescript")'], null]],
  ['tsc (plain, emit)', (dir) => [[tscBin, '-p', 'tsconfig.plain.json'], dir]],
  ['tsc --noEmit (plain)', (dir) => [[tscBin, '-p', 'tsconfig.plain.json', '--noEmit'], dir]],
  ['tspc (ts-patch in memory) + Toolwright', (dir) => [[tspcBin, '-p', 'tsconfig.json'], dir]],
  ['tsc patched once (ts-patch install) + Toolwright', (dir) => [[path.join(patchedTs, 'bin', 'tsc'), '-p', 'tsconfig.json'], dir]],
  ['toolwright build (compiler API + Toolwright, no patching)', (dir) => [[cli, 'build', '-p', 'tsconfig.json', '--no-pretty'], dir]],
  ['toolwright emit', (dir) => [[cli, 'emit', '-p', 'tsconfig.json', '--out', 'tools.json'], dir]],
  ['ts-json-schema-generator (skipTypeCheck)', (dir) => [[tjsgScript, dir], dir]],
  ...(hasTypescript7
    ? [
        [
          'toolwright emit --typescript 7 (native compiler API)',
          (dir) => [[cli, 'emit', '-p', 'tsconfig.json', '--out', 'tools.json', '--typescript', '7'], ts7(dir)],
        ],
        ...(hasTypescript71 ? [[EMIT_71, (dir) => [[cli, 'emit', '-p', 'tsconfig.json', '--out', 'tools.json', '--typescript', '7'], ts71(dir)]]] : []),
        ['tsgo (plain, emit)', (dir) => [[tsgoBin, '-p', 'tsconfig.plain.json'], ts7(dir)]],
        // In a copy of its own: the module it writes is part of that project from then on (the other routes read the tools alone).
        ['TS 7 route: toolwright emit --module + tsgo', (dir) => [[emitAndTsgo], ts7route(dir)]],
      ]
    : []),
];
const wanted = values.routes?.split(',');
// Plain tsc is the baseline of every ratio: always measured.
const routes = allRoutes.filter(([name]) => !wanted || name.startsWith('tsc (plain') || wanted.some((w) => name.includes(w)));

const table = {};
const spread = {};
const paired = {};
for (const size of sizes) {
  const dir = path.join(work, `project-${size}`);
  generateProject(dir, size, corpusOptions);
  if (hasTypescript7)
    for (const copy of [ts7(dir), ts7route(dir)]) {
      generateProject(copy, size, corpusOptions);
      fs.mkdirSync(path.join(copy, 'node_modules'), { recursive: true });
      fs.symlinkSync(typescript7, path.join(copy, 'node_modules', 'typescript'));
    }
  if (hasTypescript71) {
    generateProject(ts71(dir), size, corpusOptions);
    fs.mkdirSync(path.join(ts71(dir), 'node_modules'), { recursive: true });
    fs.symlinkSync(typescript71, path.join(ts71(dir), 'node_modules', 'typescript'));
  }
  const clean = () => fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  const samples = Object.fromEntries(routes.map(([name]) => [name, []]));
  // Interleaved: a burst of load from elsewhere on the machine hits every route alike.
  for (let run = -1; run < runs; run++) {
    for (const [name, build] of routes) {
      const [args, cwd] = build(dir);
      clean();
      const ms = time(args, cwd ?? root);
      if (run >= 0) samples[name].push(ms); // run -1 is the warm-up (file cache)
    }
  }
  for (const [name] of routes) {
    table[name] ??= {};
    spread[name] ??= {};
    paired[name] ??= {};
    // Each run's time over plain tsc's in the same run, whose median a drift in the machine's speed moves less.
    paired[name][size] = median(samples[name].map((ms, run) => ms / samples['tsc (plain, emit)'][run]));
    table[name][size] = median(samples[name]);
    spread[name][size] = (Math.max(...samples[name]) - Math.min(...samples[name])) / table[name][size];
    process.stderr.write(`${name} @ ${size}: ${table[name][size].toFixed(0)} ms [${samples[name].map((ms) => ms.toFixed(0)).join(', ')}]\n`);
  }
}

// Watch: re-emit after a one-file change, on the largest project.
const watchSize = sizes.includes(500) ? 500 : sizes[sizes.length - 1];
const watchDir = path.join(work, `project-${watchSize}`);
const watchTimes = values['no-watch']
  ? []
  : await new Promise((resolve) => {
      const { emitWatch } = require(path.join(root, 'packages/cli/dist/index.js'));
      const times = [];
      let pending;
      let writeAt = 0;
      const file = path.join(watchDir, 'src', 'tools0.ts');
      const original = fs.readFileSync(file, 'utf8');
      const handle = emitWatch(
        { project: path.join(watchDir, 'tsconfig.json'), out: path.join(watchDir, 'tools.watch.json') },
        () => {
          if (writeAt) times.push(performance.now() - writeAt);
          if (times.length >= 7) {
            handle.close();
            fs.writeFileSync(file, original);
            resolve(times);
            return;
          }
          clearTimeout(pending);
          pending = setTimeout(() => {
            fs.writeFileSync(file, `${original}\n// edit ${times.length}\nexport const marker${times.length} = ${times.length};\n`);
            writeAt = performance.now();
          }, 300);
        },
        () => {},
      );
    });

const fmt = (ms) => `${ms.toFixed(0)}`;
const has = (name) => table[name] !== undefined;
console.log(
  `\nBuild-time benchmark (${process.version}, ${values.corpus} corpus${values.corpus === 'realistic' ? ` (shared types in ${Math.round(corpusOptions.shared * 100)} % of tools)` : ''}, medians of ${runs} interleaved runs, ms; ± is (max-min)/median)`,
);
console.log(`| route | ${sizes.map((s) => `${s} tools`).join(' | ')} |`);
console.log(`| --- | ${sizes.map(() => '---:').join(' | ')} |`);
for (const [name] of routes) console.log(`| ${name} | ${sizes.map((s) => `${fmt(table[name][s])} ±${(spread[name][s] * 100).toFixed(0)}%`).join(' | ')} |`);
const plain = table['tsc (plain, emit)'];
const best = [
  'tspc (ts-patch in memory) + Toolwright',
  'tsc patched once (ts-patch install) + Toolwright',
  'toolwright build (compiler API + Toolwright, no patching)',
]
  .filter(has)
  .map((name) => ({ name, ratio: Math.max(...sizes.map((s) => table[name][s] / plain[s])) }))
  .sort((a, b) => a.ratio - b.ratio);
console.log('\nRatios vs plain tsc (emit), worst over sizes:');
for (const b of best) console.log(`  ${b.name}: ${b.ratio.toFixed(2)}x (${sizes.map((s) => `${s}: ${(table[b.name][s] / plain[s]).toFixed(2)}x`).join(', ')})`);
console.log("Paired: the median of each run's ratio to plain tsc in the same run (drift in the machine's speed cancels out):");
for (const b of best) console.log(`  ${b.name}: ${sizes.map((s) => `${s}: ${paired[b.name][s].toFixed(2)}x`).join(', ')}`);
if (best.length > 0) console.log(`Goal transformer build <= 1.15x plain tsc: ${best[0].ratio <= 1.15 ? 'met' : 'NOT met'} (fastest route: ${best[0].name})`);
// TypeScript 7 (reported whichever other routes ran).
const emit7 = table['toolwright emit --typescript 7 (native compiler API)'];
if (emit7 && table['toolwright emit'] && table['ts-json-schema-generator (skipTypeCheck)']) {
  const emit = table['toolwright emit'];
  const tjsg = table['ts-json-schema-generator (skipTypeCheck)'];
  const largest = sizes[sizes.length - 1];
  for (const s of sizes)
    console.log(
      `  @${s}: TypeScript 7 emit ${fmt(emit7[s])} ms: ${(emit[s] / emit7[s]).toFixed(2)}x faster than TS 6 emit, ${(tjsg[s] / emit7[s]).toFixed(2)}x than ts-json-schema-generator`,
    );
  console.log(`Goal emit --typescript 7 >= 3x faster than emit on TS 6 at ${largest}: ${emit[largest] / emit7[largest] >= 3 ? 'met' : 'NOT met'}`);
  console.log(`Goal emit --typescript 7 >= 5x faster than ts-json-schema-generator at ${largest}: ${tjsg[largest] / emit7[largest] >= 5 ? 'met' : 'NOT met'}`);
  const emit71 = table[EMIT_71];
  if (emit71)
    for (const s of sizes)
      console.log(
        `  @${s}: on 7.1 (batched) ${fmt(emit71[s])} ms: ${(emit[s] / emit71[s]).toFixed(2)}x faster than TS 6 emit, ${(tjsg[s] / emit71[s]).toFixed(2)}x than ts-json-schema-generator`,
      );
  const route7 = table['TS 7 route: toolwright emit --module + tsgo'];
  const route6 = table['toolwright build (compiler API + Toolwright, no patching)'];
  if (route7 && route6)
    console.log(`  whole route @${largest}: tsgo + emit ${fmt(route7[largest])} ms vs tsc + TS 6 transformer (toolwright build) ${fmt(route6[largest])} ms`);
}
if (!['toolwright emit', 'tsc --noEmit (plain)', 'ts-json-schema-generator (skipTypeCheck)', 'node + require("typescript") only'].every(has)) process.exit(0);
const emit = table['toolwright emit'];
const noEmit = table['tsc --noEmit (plain)'];
const tjsg = table['ts-json-schema-generator (skipTypeCheck)'];
for (const s of sizes)
  console.log(`  @${s}: emit / tsc --noEmit = ${(emit[s] / noEmit[s]).toFixed(2)}x; ts-json-schema-generator / emit = ${(tjsg[s] / emit[s]).toFixed(2)}x`);
const largest = sizes[sizes.length - 1];
console.log(`Goal emit no slower than tsc --noEmit: ${sizes.every((s) => emit[s] <= noEmit[s]) ? 'met' : 'NOT met'}`);
console.log(`Goal emit >= 3x faster than ts-json-schema-generator at ${largest}: ${tjsg[largest] / emit[largest] >= 3 ? 'met' : 'NOT met'}`);
const base = table['node + require("typescript") only'];
if (sizes.length > 1) {
  const first = sizes[0];
  const perTool = sizes.map((s) => ((emit[s] - base[s]) / s).toFixed(2));
  console.log(
    `toolwright emit, ms per tool above Node+typescript start-up: ${sizes.map((s, i) => `${s}: ${perTool[i]}`).join(', ')} (linear if roughly constant; first size ${first})`,
  );
}
if (watchTimes.length === 0) process.exit(0);
const watchMedian = median(watchTimes);
console.log(
  `Goal emit --watch re-emit after a one-file change <= 150 ms (${watchSize} tools): median ${watchMedian.toFixed(0)} ms over ${watchTimes.length} edits [${watchTimes.map(fmt).join(', ')}] -> ${watchMedian <= 150 ? 'met' : 'NOT met'}`,
);
