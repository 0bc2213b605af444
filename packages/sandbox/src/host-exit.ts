/** Clean-ups to run when this process ends, in the order they were registered. */
const cleanups: (() => void)[] = [];

/**
 * Runs `cleanup` when this process ends: on 'exit', and — since a process with no handler of its own
 * for SIGINT, SIGTERM or SIGHUP ends on one without 'exit' (Ctrl-C on `toolwright call`) — on those
 * signals first, after which the signal does what it would have done. Clean-ups are synchronous, run
 * once, and one that throws does not stop the rest.
 */
export function onHostExit(cleanup: () => void): void {
  if (cleanups.length === 0) {
    process.once('exit', runAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(signal, () => {
        if (process.listenerCount(signal) > 0) return; // the program handles it, and exits through 'exit'
        runAll();
        process.kill(process.pid, signal);
      });
  }
  cleanups.push(cleanup);
}

function runAll(): void {
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // the others still run
    }
  }
}
