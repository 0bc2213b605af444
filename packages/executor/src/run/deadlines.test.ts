import { describe, expect, it } from 'vitest';
import { Deadlines } from './deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines', () => {
  it('fires each pending deadline at its time, in order, and never a cancelled one', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    const started = performance.now();
    const times: Record<string, number> = {};
    const a = deadlines.add(40, () => {
      fired.push('a');
      times.a = performance.now() - started;
    });
    await sleep(10);
    const b = deadlines.add(40, () => fired.push('b'));
    const cAdded = performance.now();
    deadlines.add(40, () => {
      fired.push('c');
      times.c = performance.now() - cAdded;
    });
    deadlines.add(15, () => fired.push('short'));
    b.cancel();
    await sleep(80);
    expect(fired).toEqual(['short', 'a', 'c']);
    expect(times.a).toBeGreaterThanOrEqual(39);
    // Each fires its 40 ms after it was added (timers may wake up to a millisecond early on this clock).
    expect(times.c).toBeGreaterThanOrEqual(39);
    a.cancel(); // cancelling after firing is harmless
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
