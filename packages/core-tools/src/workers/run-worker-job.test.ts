import { describe, expect, it } from 'vitest';
import { withEventLoopLag } from '../test-support/event-loop-lag.js';
import { runWorkerJob, type WorkerProgram } from './run-worker-job.js';

/** Echoes a job's `value`, spins forever on `spin`, fills its heap on `grow`, throws uncaught on `crash`. */
const PROGRAM: WorkerProgram = {
  source: String.raw`
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job.spin) for (;;);
  if (job.grow) { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(hoard.length)); }
  if (job.crash) setImmediate(() => { throw new Error('boom'); });
  else parentPort.postMessage({ value: job.value, prefix: workerData.prefix });
});
`,
  workerData: { prefix: 'p' },
  maxHeapMb: 64,
};

describe(runWorkerJob, () => {
  it('resolves with the reply, and reuses the warm worker for the next job', async () => {
    expect(await runWorkerJob(PROGRAM, { value: 1 }, { budgetMs: 10_000 })).toEqual({ ok: true, reply: { value: 1, prefix: 'p' } });
    expect(await runWorkerJob(PROGRAM, { value: 2 }, { budgetMs: 10_000 })).toEqual({ ok: true, reply: { value: 2, prefix: 'p' } });
  });

  it('stops a job at its budget, leaving the event loop free meanwhile, and runs the next job afterwards', async () => {
    const { value, maxLagMs } = await withEventLoopLag(() => runWorkerJob(PROGRAM, { spin: true }, { budgetMs: 300 }));
    expect(value).toEqual({ ok: false, stop: 'budget', budgetMs: 300 });
    expect(maxLagMs).toBeLessThan(200);
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

  it('runs concurrent jobs in separate workers', async () => {
    const spinning = runWorkerJob(PROGRAM, { spin: true }, { budgetMs: 500 });
    expect(await runWorkerJob(PROGRAM, { value: 4 }, { budgetMs: 10_000 })).toMatchObject({ ok: true, reply: { value: 4 } });
    expect(await spinning).toMatchObject({ stop: 'budget' });
  });
});
