#!/usr/bin/env node
// Runs the static checks — module boundaries, import cycles, exports, lint and format, the tests' type check, the type
// tests — side by side, as many at once as the machine has CPUs: each is one program that uses a core and a half at
// most, and one after another they left a core idle for two minutes. Each check's output is printed whole when it ends
// (never interleaved), then a line per check with its time; the exit code is 1 if any check failed.
//
//   node tools/scripts/run-checks.mjs [<npm script>...]                      the checks (all of them when none is named)
//   node tools/scripts/run-checks.mjs --build --beside-vitest [<script>...]  what `npm test` runs (below)
//
// --beside-vitest: `vitest run` too, its output live, and the checks at the lowest priority (nice 19): vitest's workers
// leave a sixth of the CPUs idle while their tests wait on processes, timers and sandboxes, and the checks take that
// time instead of a turn of their own before vitest; the tests, some of which wait for deadlines, keep the CPU first.
// At nice 10 the checks still took a tenth of a CPU each while vitest was busy: a fresh clone's vitest ran 623 s
// beside them (3 at a time), ~100 s more than alone, and the checks ended 100 s before it.
// A check's output comes after vitest's (a line says when each ends).
// --build: `npm run build` and the TypeScript 7 installs (`npm run typescript-7`) first, vitest only once both have
// passed; the checks that read no built declarations start beside the build at the lower priority (the build leaves a
// third of 2 CPUs idle), those that do (NEEDS_BUILD) after it. A build that fails ends the run: its output is printed,
// vitest and the checks that need it do not run, and the exit code is 1.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

// The longest first: the last to end decides when `npm test` ends.
const CHECKS = ['lint', 'format:check', 'typecheck:tests', 'test:types', 'check:exports', 'check:cycles', 'check:boundaries'];
/** The checks that read the packages' built declarations (`dist/`): tsd's tests of the published types, the `@internal` check. */
const NEEDS_BUILD = new Set(['test:types', 'check:exports']);
/** What `--build` runs first, one beside the other: the packages' build, and the TypeScript 7 lines the front end is tested on. */
const PREPARE = ['build', 'typescript-7'];
const CHECK_PRIORITY = 19;

const root = path.resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const withBuild = args.includes('--build');
const besideVitest = args.includes('--beside-vitest');
const named = args.filter((arg) => arg !== '--build' && arg !== '--beside-vitest');
const unknown = named.filter((arg) => arg.startsWith('-'));
if (unknown.length > 0) {
  console.error(`run-checks: unknown option ${unknown[0]}; usage: node tools/scripts/run-checks.mjs [--build] [--beside-vitest] [<npm script>...]`);
  process.exit(2);
}
// The checks that need no build first, so that they are the ones running beside it.
const scripts = (named.length > 0 ? named : CHECKS).toSorted((a, b) => Number(withBuild && NEEDS_BUILD.has(a)) - Number(withBuild && NEEDS_BUILD.has(b)));
const npm = process.env.npm_execpath;

/** Starts a program with its output kept until it ends; resolves with its exit code, output and time. */
function runKept(label, command, commandArgs, { priority } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    // Set before the program has started anything of its own (Node takes tens of milliseconds to boot), so the
    // processes it starts inherit it.
    if (priority !== undefined && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, priority);
      } catch {
        // Not permitted here: the check runs at the usual priority.
      }
    }
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ label, code: 1, output: Buffer.from(`${error.message}\n`), seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ label, code: code ?? (signal ? 128 : 1), output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

/** Runs one npm script, its output kept until it ends. */
function runScript(script, options) {
  // Under `npm test`, npm_execpath is npm's own CLI: started with this Node, no shell and no second lookup of npm.
  const [command, commandArgs] = npm && npm.endsWith('.js') ? [process.execPath, [npm, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  return runKept(script, command, commandArgs, options);
}

/** `vitest run`, its output live (it prints as files end). */
function runVitest() {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', (error) => resolve({ label: 'vitest', code: 1, error: error.message, seconds: 0 }));
    child.on('close', (code, signal) => resolve({ label: 'vitest', code: code ?? (signal ? 128 : 1), seconds: (Date.now() - started) / 1000 }));
  });
}

function printResult(result) {
  process.stdout.write(`\n── ${result.label} (${result.code === 0 ? 'passed' : `FAILED, exit code ${result.code}`}, ${result.seconds.toFixed(1)} s)\n`);
  process.stdout.write(result.output);
}

const lowered = besideVitest || withBuild ? { priority: CHECK_PRIORITY } : {};
const prepared = withBuild ? prepare() : Promise.resolve({ ok: true, results: [] });
const vitest = besideVitest ? prepared.then(({ ok }) => (ok ? runVitest() : undefined)) : undefined;
// Beside vitest, one more than the CPUs: at the lower priority the checks take only what vitest leaves, and while its
// workers wait (on processes, timers, sandboxes) a single check left a CPU idle.
const slots = Math.max(1, Math.min(scripts.length, os.availableParallelism() + (besideVitest ? 1 : 0)));
const queue = [...scripts];
const results = [];
const checks = Promise.all(
  Array.from({ length: slots }, async () => {
    for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
      if (withBuild && NEEDS_BUILD.has(script) && !(await prepared).ok) {
        results.push({ label: script, code: 1, output: Buffer.from('not run: the build failed\n'), seconds: 0 });
        continue;
      }
      const result = await runScript(script, lowered);
      results.push(result);
      if (besideVitest || withBuild)
        process.stdout.write(
          `\n── check ${script}: ${result.code === 0 ? 'passed' : 'FAILED (its output follows at the end)'} in ${result.seconds.toFixed(1)} s\n`,
        );
      else printResult(result);
    }
  }),
);
const [vitestResult, , preparation] = await Promise.all([vitest, checks, prepared]);
if (besideVitest || withBuild) for (const script of scripts) printResult(results.find((r) => r.label === script));

const failed = [...preparation.results, ...results].filter((result) => result.code !== 0).map((result) => result.label);
if (vitestResult && vitestResult.code !== 0) failed.unshift(`vitest${vitestResult.error ? ` (${vitestResult.error})` : ''}`);
if (besideVitest && !vitestResult) failed.push('vitest (not run: the build failed)');
const timed = [...preparation.results, ...scripts.map((script) => results.find((r) => r.label === script))];
console.log(`\nchecks: ${timed.map((r) => `${r.label} ${r.seconds.toFixed(1)} s`).join(', ')}`);
if (vitestResult) console.log(`vitest: ${vitestResult.code === 0 ? 'passed' : 'FAILED'} in ${vitestResult.seconds.toFixed(1)} s`);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`checks: all ${scripts.length} passed${vitestResult ? ', and vitest' : ''}`);

/** The build and the TypeScript 7 installs, side by side at the usual priority; each one's output printed when it ends. */
async function prepare() {
  const done = await Promise.all(
    PREPARE.map(async (script) => {
      const result = await runScript(script);
      printResult(result);
      return result;
    }),
  );
  return { ok: done.every((result) => result.code === 0), results: done };
}
