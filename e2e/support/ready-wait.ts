import fs from 'node:fs';

/**
 * How long, in milliseconds, process `pid`'s main thread has been ready to run and left waiting for
 * a CPU (Linux's schedstat, in nanoseconds), or 0 where the system does not say. A check that a
 * process answers promptly takes this off what it measured: on a loaded shared machine a ready
 * thread can wait a second for a CPU, which says nothing about the process's own work.
 */
export function readyWaitMs(pid: number): number {
  try {
    const waited = Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    return Number.isFinite(waited) ? waited : 0;
  } catch {
    return 0;
  }
}
