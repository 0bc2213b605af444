#!/usr/bin/env node
// file_read on huge files: resident memory growth of one call (figures, never assertions).
// Each case runs in a fresh child process that loads the core tools, warms up with one read of a
// small file, resets its peak-RSS mark (/proc/self/clear_refs), calls file_read(path, 1, 1) and
// reports peak RSS (VmHWM) minus RSS before the call. Cases, side by side:
//   baseline   line 1 of a 1 KiB text file
//   text       line 1 of a --mb MB text file (default 300; it used to peak at 1.22 GB)
//   sparse     line 1 of a --gib GiB sparse file (default 5: 64 KiB of text, then a hole; it used to fail)
// Goal: <= 64 MB growth. Needs built packages (npm run build), or --dist pointing at a build of core-tools.
// Usage: node tools/bench/file-read-memory.mjs [--mb N] [--gib G] [--dist dir]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '300' },
    gib: { type: 'string', default: '5' },
    dist: { type: 'string', default: path.join(root, 'packages/core-tools/dist') },
    child: { type: 'string' },
    workspace: { type: 'string' },
  },
});

if (values.child) {
  // In the child: one measured call.
  const core = createRequire(import.meta.url)(path.join(path.resolve(values.dist), 'index.js'));
  const tool = new core.FileReadTool({ workspace: new core.WorkspacePolicy({ root: values.workspace }) });
  await tool.fileRead('small.txt', 1, 1);
  global.gc?.();
  const resetPeak = () => {
    try {
      fs.writeFileSync('/proc/self/clear_refs', '5');
      return true;
    } catch {
      return false;
    }
  };
  const peakKiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);
  const exact = resetPeak();
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const result = await tool.fileRead(values.child, 1, 1);
  const ms = performance.now() - started;
  const peak = exact ? peakKiB() * 1024 : process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    JSON.stringify({
      growth: peak - before,
      before,
      ms,
      content: result.content.slice(0, 40),
      truncated: result.truncated,
      totalLines: result.totalLines ?? null,
      exact,
    }),
  );
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-read-'));
try {
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; core-tools from ${path.resolve(values.dist)}`);
  fs.writeFileSync(path.join(dir, 'small.txt'), 'small file\n'.repeat(100));
  const line = (i) => `${String(i).padStart(12, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
  const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
  const text = fs.openSync(path.join(dir, 'text.log'), 'w');
  for (let written = 0; written < Number(values.mb) * 1024 * 1024; written += block.length) fs.writeSync(text, block);
  fs.closeSync(text);
  fs.writeFileSync(path.join(dir, 'sparse.log'), block.subarray(0, 64 * 1024));
  fs.truncateSync(path.join(dir, 'sparse.log'), Math.round(Number(values.gib) * 1024 ** 3));
  const cases = [
    ['baseline: line 1 of a 1 KiB file', 'small.txt'],
    [`line 1 of a ${values.mb} MB text file`, 'text.log'],
    [`line 1 of a ${values.gib} GiB sparse file`, 'sparse.log'],
  ];
  for (const [label, file] of cases) {
    const size = fs.statSync(path.join(dir, file)).size;
    const run = spawnSync(process.execPath, ['--expose-gc', import.meta.filename, '--child', file, '--workspace', dir, '--dist', values.dist], {
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      console.log(`   ${label}: failed\n${run.stderr}`);
      continue;
    }
    const r = JSON.parse(run.stdout);
    console.log(
      `   ${label} (${size} bytes): RSS growth ${(r.growth / 1024 ** 2).toFixed(1)} MB${r.exact ? '' : ' (from maxrss)'}, ${r.ms.toFixed(1)} ms; returned ${JSON.stringify(r.content)}, truncated ${r.truncated}, totalLines ${r.totalLines}`,
    );
  }
  console.log('   goal: <= 64 MB growth for the huge files');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
