/** How often the lag probe asks for a turn of the event loop. */
const PROBE_MS = 10;

/**
 * Runs `work` while a timer asks for a turn every 10 ms, and returns its result with the longest
 * the timer waited past its time: how long the event loop was held at once (a behaviour check for
 * work that must not block it, not a benchmark).
 */
export async function withEventLoopLag<T>(work: () => Promise<T>): Promise<{ value: T; maxLagMs: number }> {
  let last = performance.now();
  let maxLagMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - PROBE_MS);
    last = now;
  }, PROBE_MS);
  try {
    const value = await work();
    maxLagMs = Math.max(maxLagMs, performance.now() - last - PROBE_MS);
    return { value, maxLagMs };
  } finally {
    clearInterval(probe);
  }
}

/** `<div>` nested `levels` deep around one word: quadratic or worse for DOM libraries that rescan ancestors. */
export function nestedDivs(levels: number): string {
  return `<html><body>${'<div>'.repeat(levels)}x${'</div>'.repeat(levels)}</body></html>`;
}
