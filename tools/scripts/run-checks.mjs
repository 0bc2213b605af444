#!/usr/bin/env node
// Runs the static checks `npm test` needs after the build — module boundaries, import cycles, exports, lint and
// format, the tests' type check, the type tests — side by side, as many at once as the machine has CPUs: each is
// one program that uses a core and a half at most, and one after another they left a core idle for two minutes.
// Each check's output is printed whole when it ends (never interleaved), then a line per check with its time;
// the exit code is 1 if any check failed. Usage: node tools/scripts/run-checks.mjs <npm script>...
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node tools/scripts/run-checks.mjs <npm script>...');
  process.exit(2);
}
const npm = process.env.npm_execpath;

/** Runs one npm script, its output kept until it ends. */
function runScript(script) {
  const started = Date.now();
  // Under `npm test`, npm_execpath is npm's own CLI: started with this Node, no shell and no second lookup of npm.
  const [command, args] = npm && npm.endsWith('.js') ? [process.execPath, [npm, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: Buffer.from(`${error.message}\n`), seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? (signal ? 128 : 1), output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const slots = Math.max(1, Math.min(scripts.length, os.availableParallelism()));
const queue = [...scripts];
const results = [];
await Promise.all(
  Array.from({ length: slots }, async () => {
    for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
      const result = await runScript(script);
      process.stdout.write(`\n── ${script} (${result.code === 0 ? 'passed' : `FAILED, exit code ${result.code}`}, ${result.seconds.toFixed(1)} s)\n`);
      process.stdout.write(result.output);
      results.push(result);
    }
  }),
);

const failed = results.filter((result) => result.code !== 0);
console.log(`\nchecks: ${scripts.map((s) => `${s} ${results.find((r) => r.script === s).seconds.toFixed(1)} s`).join(', ')}`);
if (failed.length > 0) {
  console.error(`checks failed: ${failed.map((r) => r.script).join(', ')}`);
  process.exit(1);
}
console.log(`checks: all ${scripts.length} passed`);
