#!/usr/bin/env node
// shell_exec latency with and without the kernel sandbox, side by side in one run (figures, never
// assertions): --calls calls of --command through ShellTool.shellExec, alternating sandboxed and
// unsandboxed one by one so both see the same machine load; p50/p90/p99 of each and the p50 added.
// Goal: the sandbox adds <= 15 ms at p50. Needs bubblewrap (apt-get install bubblewrap) and a build.
// The sandbox looks for protected and denied paths afresh before every command: --files N fills the
// workspace with N files (100 per folder) to show what that costs, --deny adds a deny rule (a rule
// that may match anywhere, such as "**/*.key", makes the search walk the whole tree).
// Usage: node tools/bench/shell-sandbox.mjs [--calls N] [--command 'echo hi'] [--backend host|session] [--files N] [--deny PATTERN]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const core = require(path.join(root, 'packages/core-tools/dist/index.js'));
const tool = require(path.join(root, 'packages/tool/dist/index.js'));
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000' },
    command: { type: 'string', default: 'echo hi' },
    backend: { type: 'string', default: 'host' },
    files: { type: 'string', default: '0' },
    deny: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-sbx-')));
fs.mkdirSync(path.join(ws, '.git'));
fs.writeFileSync(path.join(ws, 'notes.txt'), 'a\nb\n');
for (let i = 0; i < Number(values.files); i++) {
  const dir = path.join(ws, 'tree', `d${Math.floor(i / 100)}`);
  if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `f${i}.txt`), '');
}
const workspace = new core.WorkspacePolicy({ root: ws, ...(values.deny ? { deniedPaths: [values.deny] } : {}) });
const shells = {
  sandbox: new core.ShellTool({ workspace, shell: { backend: values.backend, sandbox: 'required' } }),
  host: new core.ShellTool({ workspace, shell: { backend: values.backend, sandbox: 'off' } }),
};
const context = { callId: 'b', toolName: 'shell_exec', sessionId: 'bench', signal: new AbortController().signal, progress: () => {} };
const once = async (shell) => {
  const started = performance.now();
  const result = await tool.runWithToolContext(context, () => shell.shellExec(values.command));
  if (result.exitCode !== 0) throw new Error(`${values.command} failed: ${result.stderr}`);
  return performance.now() - started;
};

console.log(
  `node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(2)}; ${CALLS} calls each of \`${values.command}\` (${values.backend} backend; ${values.files} files${values.deny ? `, deny ${values.deny}` : ''})`,
);
for (const shell of Object.values(shells)) for (let i = 0; i < 20; i++) await once(shell); // warm up (probe, parser, page cache)
const times = { sandbox: [], host: [] };
for (let i = 0; i < CALLS; i++) {
  const order = i % 2 === 0 ? ['sandbox', 'host'] : ['host', 'sandbox'];
  for (const name of order) times[name].push(await once(shells[name]));
}
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const row = (name) =>
  `${name.padEnd(8)} p50 ${pct(times[name], 50).toFixed(1)} ms  p90 ${pct(times[name], 90).toFixed(1)} ms  p99 ${pct(times[name], 99).toFixed(1)} ms`;
console.log(row('host'));
console.log(row('sandbox'));
const added = pct(times.sandbox, 50) - pct(times.host, 50);
console.log(
  `added by the sandbox at p50: ${added.toFixed(1)} ms (goal <= 15 ms), at p99: ${(pct(times.sandbox, 99) - pct(times.host, 99)).toFixed(1)} ms; load ${os.loadavg()[0].toFixed(2)}`,
);
for (const shell of Object.values(shells)) shell.dispose();
fs.rmSync(ws, { recursive: true, force: true });
