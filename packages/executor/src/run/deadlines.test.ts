import { describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines', () => {
  // On a fake clock: the order must follow the deadlines, not how late a loaded machine wakes the test.
  it('fires each pending deadline at its time, in order, and never a cancelled one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const deadlines = new Deadlines();
      const fired: [string, number][] = [];
      const at = (name: string) => () => fired.push([name, performance.now()]);
      const started = performance.now();
      const a = deadlines.add(40, at('a'));
      await vi.advanceTimersByTimeAsync(10);
      const b = deadlines.add(40, at('b'));
      deadlines.add(40, at('c'));
      deadlines.add(15, at('short'));
      b.cancel();
      await vi.advanceTimersByTimeAsync(39);
      expect(fired.map(([name]) => name)).toEqual(['short', 'a']);
      await vi.advanceTimersByTimeAsync(1);
      // Each fires 40 ms (or 15) after it was added, never before.
      expect(fired.map(([name, time]) => [name, time - started])).toEqual([
        ['short', 25],
        ['a', 40],
        ['c', 50],
      ]);
      a.cancel(); // cancelling after firing is harmless
      await vi.advanceTimersByTimeAsync(100);
      expect(fired).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps no backlog when calls settle before their deadlines', async () => {
    const deadlines = new Deadlines();
    let fired = 0;
    for (let i = 0; i < 5000; i++) deadlines.add(30, () => fired++).cancel();
    const late = deadlines.add(30, () => fired++);
    const lanes = (deadlines as unknown as { lanes: Map<number, { queue: unknown[]; head: number }> }).lanes;
    expect(lanes.get(30)!.queue.length - lanes.get(30)!.head).toBe(1);
    await sleep(60);
    expect(fired).toBe(1);
    late.cancel();
    expect(lanes.size).toBe(0);
  });

  it("keeps an idle lane's timer without letting it hold the process open, and reuses it", async () => {
    const deadlines = new Deadlines();
    const lanes = (deadlines as unknown as { lanes: Map<number, { timer: NodeJS.Timeout | undefined }> }).lanes;
    deadlines.add(10_000, () => {}).cancel();
    const timer = lanes.get(10_000)!.timer!;
    expect(timer.hasRef()).toBe(false); // an idle process can exit
    const next = deadlines.add(10_000, () => {});
    expect(lanes.get(10_000)!.timer).toBe(timer);
    expect(timer.hasRef()).toBe(true); // a pending deadline keeps it alive
    next.cancel();
    expect(timer.hasRef()).toBe(false);
    clearTimeout(timer);
  });
});
