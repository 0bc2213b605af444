import { setImmediate } from 'node:timers/promises';

/** How long work a model sizes runs before it lets other work run. */
const SLICE_MS = 8;

/**
 * The turns on the event loop of work whose size a model controls (a tree walk, a recursive delete): `next()` lets
 * other work run once `SLICE_MS` have passed since the last time, and throws once `signal` has aborted (its reason,
 * or `cancelled()`), so the call's deadline and cancellation stop the work where it is.
 */
export class TimeSlices {
  private started = performance.now();

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly cancelled: () => unknown = () => new DOMException('The operation was aborted.', 'AbortError'),
  ) {}

  async next(): Promise<void> {
    if (performance.now() - this.started >= SLICE_MS) {
      await setImmediate();
      this.started = performance.now();
    }
    if (this.signal?.aborted) throw this.signal.reason ?? this.cancelled();
  }
}
