/** How often the lag probe asks for a turn of the event loop. */
const PROBE_MS = 10;

/**
 * The longest a check lets work hold the event loop at once. What these checks guard against held
 * it for seconds (a glob over a million files 8.5 s, nested HTML minutes), while a shared machine
 * under load delays a timer by a few hundred milliseconds on its own: a second tells the two apart.
 */
export const HELD_AT_MOST_MS = 1_000;

/**
 * Runs `work` while a timer asks for a turn every 10 ms, and returns its result with the longest
 * the timer waited past its time — how long the event loop was held at once — and how many turns
 * it got (work done in one synchronous stretch lets it have none, however fast the machine). A
 * behaviour check for work that must not block the loop, not a benchmark.
 */
export async function withEventLoopLag<T>(work: () => Promise<T>): Promise<{ value: T; maxLagMs: number; turns: number }> {
  let last = performance.now();
  let maxLagMs = 0;
  let turns = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - PROBE_MS);
    last = now;
    turns++;
  }, PROBE_MS);
  try {
    const value = await work();
    maxLagMs = Math.max(maxLagMs, performance.now() - last - PROBE_MS);
    return { value, maxLagMs, turns };
  } finally {
    clearInterval(probe);
  }
}

/** `<div>` nested `levels` deep around one word: quadratic or worse for DOM libraries that rescan ancestors. */
export function nestedDivs(levels: number): string {
  return `<html><body>${'<div>'.repeat(levels)}x${'</div>'.repeat(levels)}</body></html>`;
}
