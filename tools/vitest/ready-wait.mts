// Checks that something answers promptly (a call ends at its deadline, a server answers a ping, the
// event loop is not held) measure time, and a loaded shared machine adds time of its own: a thread
// ready to run can wait a second for a CPU. Linux counts that wait per thread (schedstat), so a
// check can leave it out and still fail on what it is about — work that runs, blocks or sleeps too long.
import fs from 'node:fs';

/**
 * How long, in milliseconds, process `pid`'s main thread has been ready to run and left waiting for
 * a CPU, or undefined where the system does not say.
 */
export function readyWaitMs(pid: number = process.pid): number | undefined {
  try {
    const waited = Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    return Number.isFinite(waited) ? waited : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a stopwatch: the function returned gives the milliseconds since, less the longest time one
 * of the main threads of `pids` (this process by default) waited, ready, for a CPU meanwhile — the
 * longest, not the sum: their waits may overlap. A process that has ended by the reading counts no
 * wait of its own. What it cannot tell from load: a process's own threads or children starving its
 * main thread (a check that must catch that keeps a generous bound by the clock as well).
 */
export function stopwatch(pids: readonly number[] = [process.pid]): () => number {
  const started = performance.now();
  const waitedBefore = pids.map((pid) => readyWaitMs(pid));
  return () => {
    let waited = 0;
    pids.forEach((pid, i) => {
      const before = waitedBefore[i];
      const now = before === undefined ? undefined : readyWaitMs(pid);
      if (before !== undefined && now !== undefined) waited = Math.max(waited, now - before);
    });
    return performance.now() - started - waited;
  };
}
