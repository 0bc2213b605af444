import { getEventListeners } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { HELD_AT_MOST_MS, withEventLoopLag } from '../test-support/event-loop-lag.js';
import { runWorkerJob, type WorkerProgram } from './run-worker-job.js';

/**
 * Echoes a job's `value`, spins forever on `spin`, fills its heap on `grow`, throws uncaught on `crash`;
 * replies with its thread id on `thread`; `dieWhenIdle`: exits or throws uncaught 20 ms after replying.
 */
const PROGRAM: WorkerProgram = {
  source: String.raw`
const { parentPort, workerData, threadId } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job.spin) for (;;);
  if (job.grow) { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(hoard.length)); }
  if (job.crash) setImmediate(() => { throw new Error('boom'); });
  else if (job.thread) parentPort.postMessage({ thread: threadId });
  else parentPort.postMessage({ value: job.value, prefix: workerData.prefix });
  if (job.dieWhenIdle === 'exit') setTimeout(() => process.exit(1), 20);
  if (job.dieWhenIdle === 'throw') setTimeout(() => { throw new Error('idle boom'); }, 20);
});
`,
  workerData: { prefix: 'p' },
  maxHeapMb: 64,
};

/** Every worker started in this file, to wait for one to exit. */
const started: Worker[] = [];
process.on('worker', (worker) => started.push(worker));

describe(runWorkerJob, () => {
  it('resolves with the reply, and reuses the warm worker for the next job', async () => {
    expect(await runWorkerJob(PROGRAM, { value: 1 }, { budgetMs: 10_000 })).toEqual({ ok: true, reply: { value: 1, prefix: 'p' } });
    expect(await runWorkerJob(PROGRAM, { value: 2 }, { budgetMs: 10_000 })).toEqual({ ok: true, reply: { value: 2, prefix: 'p' } });
  });

  it('stops a job at its budget, leaving the event loop free meanwhile, and runs the next job afterwards', async () => {
    const { value, maxLagMs } = await withEventLoopLag(() => runWorkerJob(PROGRAM, { spin: true }, { budgetMs: 1_500 }));
    expect(value).toEqual({ ok: false, stop: 'budget', budgetMs: 1_500 });
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
    expect(await runWorkerJob(PROGRAM, { value: 3 }, { budgetMs: 10_000 })).toMatchObject({ ok: true });
  });

  it('ends with crashed when the worker outgrows its heap cap or throws', async () => {
    expect(await runWorkerJob(PROGRAM, { grow: true }, { budgetMs: 20_000 })).toMatchObject({
      ok: false,
      stop: 'crashed',
      detail: expect.stringMatching(/memory/),
    });
    expect(await runWorkerJob(PROGRAM, { crash: true }, { budgetMs: 10_000 })).toEqual({ ok: false, stop: 'crashed', detail: 'boom' });
  });

  it('ends with aborted and the reason when the signal aborts, before or during the job', async () => {
    expect(await runWorkerJob(PROGRAM, { value: 1 }, { budgetMs: 10_000, signal: AbortSignal.abort('gone') })).toEqual({
      ok: false,
      stop: 'aborted',
      reason: 'gone',
    });
    const controller = new AbortController();
    const running = runWorkerJob(PROGRAM, { spin: true }, { budgetMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort('late'), 50);
    expect(await running).toEqual({ ok: false, stop: 'aborted', reason: 'late' });
  });

  it.for(['exit', 'throw'])('runs the next job in a fresh worker when the warm one dies while idle (%s)', async (death) => {
    const first = await runWorkerJob<{ thread: number }>(PROGRAM, { thread: true, dieWhenIdle: death }, { budgetMs: 10_000 });
    if (!first.ok) throw new Error(`the first job ended with ${first.stop}`);
    // A worker that has exited already has thread id -1; events.once would reject on the 'error' before 'exit'.
    const dying = started.find((worker) => worker.threadId === first.reply.thread);
    if (dying) await new Promise((resolve) => dying.once('exit', resolve));
    const next = await runWorkerJob<{ thread: number }>(PROGRAM, { thread: true }, { budgetMs: 10_000 });
    expect(next).toEqual({ ok: true, reply: { thread: expect.any(Number) } });
    expect(next.ok && next.reply.thread).not.toBe(first.reply.thread);
  });

  it('ends with crashed when the job cannot be posted, leaving no timer or listener behind', async () => {
    const controller = new AbortController();
    vi.useFakeTimers();
    try {
      const outcome = await runWorkerJob(PROGRAM, { value: () => 1 }, { budgetMs: 10_000, signal: controller.signal });
      expect(outcome).toEqual({ ok: false, stop: 'crashed', detail: expect.stringMatching(/could not be cloned/) });
      expect(vi.getTimerCount()).toBe(0);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
    expect(await runWorkerJob(PROGRAM, { value: 7 }, { budgetMs: 10_000 })).toMatchObject({ ok: true, reply: { value: 7 } });
  });

  it('runs concurrent jobs in separate workers', async () => {
    const spinning = runWorkerJob(PROGRAM, { spin: true }, { budgetMs: 500 });
    expect(await runWorkerJob(PROGRAM, { value: 4 }, { budgetMs: 10_000 })).toMatchObject({ ok: true, reply: { value: 4 } });
    expect(await spinning).toMatchObject({ stop: 'budget' });
  });
});
