import { readyWaitMs } from '../../../../tools/vitest/ready-wait.mts';

/** How often the lag probe asks for a turn of the event loop. */
const PROBE_MS = 10;

/**
 * The longest a check lets work hold the event loop at once. What these checks guard against held
 * it for seconds (a glob over a million files 8.5 s, nested HTML minutes); a second tells the two
 * apart, the more so as time the machine kept the main thread waiting does not count (below).
 */
export const HELD_AT_MOST_MS = 1_000;

/**
 * Runs `work` while a timer asks for a turn every 10 ms, and returns its result with the longest
 * the event loop was held at once and how many turns the timer got (work done in one synchronous
 * stretch lets it have none, however fast the machine). A behaviour check for work that must not
 * block the loop, not a benchmark.
 *
 * A timer that fires late was held up either by this process (work running on the loop, or
 * blocking it: a synchronous read, a wait) or by a loaded machine leaving the ready thread
 * waiting for a CPU (on a shared 2-core machine a second passes that way). Only the first is what
 * is checked: the time the main thread spent waiting for a CPU meanwhile is taken off a late turn.
 * Where the system does not say, the clock alone is used.
 */
export async function withEventLoopLag<T>(work: () => Promise<T>): Promise<{ value: T; maxLagMs: number; turns: number }> {
  let last = performance.now();
  let lastWait = readyWaitMs();
  let maxLagMs = 0;
  let turns = 0;
  const sample = (): void => {
    const now = performance.now();
    const wait = lastWait === undefined ? undefined : readyWaitMs();
    const late = now - last - PROBE_MS;
    maxLagMs = Math.max(maxLagMs, wait === undefined || lastWait === undefined ? late : late - (wait - lastWait));
    last = now;
    lastWait = wait;
  };
  const probe = setInterval(() => {
    sample();
    turns++;
  }, PROBE_MS);
  try {
    const value = await work();
    sample();
    return { value, maxLagMs, turns };
  } finally {
    clearInterval(probe);
  }
}

/** `<div>` nested `levels` deep around one word: quadratic or worse for DOM libraries that rescan ancestors. */
export function nestedDivs(levels: number): string {
  return `<html><body>${'<div>'.repeat(levels)}x${'</div>'.repeat(levels)}</body></html>`;
}
