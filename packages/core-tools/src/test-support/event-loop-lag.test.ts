// The lag probe counts what holds the event loop (work on it, a blocking wait) and not what a loaded
// machine does to a thread that is ready to run: the hostile-size checks fail on the first only.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';
import { withEventLoopLag } from './event-loop-lag.js';

const linux = fs.existsSync(`/proc/self/task/${process.pid}/schedstat`);

/** The main thread's time on a CPU, in milliseconds (Linux). */
function onCpuMs(): number {
  return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

const hogs: ChildProcess[] = [];
let restoreAffinity: string | undefined;
afterEach(() => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
  if (restoreAffinity) execFileSync('taskset', ['-p', restoreAffinity, String(process.pid)]);
  restoreAffinity = undefined;
});

describe('withEventLoopLag and stopwatch', () => {
  it('counts work that runs on the loop for a stretch', async () => {
    const { maxLagMs, turns } = await withEventLoopLag(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      // 1.2 s of the thread's own CPU time (by the clock, a loaded machine would give it less and count the rest out).
      const spent = linux ? onCpuMs : () => performance.now();
      const until = spent() + 1_200;
      while (spent() < until);
    });
    expect(maxLagMs).toBeGreaterThan(1_000);
    expect(turns).toBeGreaterThanOrEqual(1);
  });

  it('counts a blocking wait, which uses no CPU', async () => {
    const { maxLagMs } = await withEventLoopLag(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_200);
    });
    expect(maxLagMs).toBeGreaterThan(1_000);
  });

  it.runIf(linux)('does not count the time a loaded machine leaves the ready thread waiting for a CPU', async () => {
    // The main thread and three busy processes share one CPU: each gets about a quarter of it.
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const cpu = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[36]!; // the 39th field: the CPU it last ran on
    const mask = execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' })
      .trim()
      .split(': ')
      .at(-1);
    execFileSync('taskset', ['-p', '-c', cpu, String(process.pid)]);
    restoreAffinity = mask;
    for (let i = 0; i < 3; i++) hogs.push(spawn('taskset', ['-c', cpu, 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }));
    await new Promise((resolve) => setTimeout(resolve, 200));

    // 250 ms of the thread's own CPU time in one stretch: under that contention, a second or so by the clock.
    let wallMs = 0;
    let stopwatchMs = 0;
    const { maxLagMs } = await withEventLoopLag(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const started = performance.now();
      const elapsed = stopwatch();
      const until = onCpuMs() + 250;
      while (onCpuMs() < until);
      wallMs = performance.now() - started;
      stopwatchMs = elapsed();
    });
    expect(wallMs).toBeGreaterThan(600); // the contention took hold: the clock alone would count this much
    expect(maxLagMs).toBeGreaterThan(200);
    expect(maxLagMs).toBeLessThan(500);
    // The stopwatch for deadline checks leaves the same wait out.
    expect(stopwatchMs).toBeGreaterThan(200);
    expect(stopwatchMs).toBeLessThan(500);
  });
});
