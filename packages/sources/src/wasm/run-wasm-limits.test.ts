import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { runWasm } from './run-wasm.js';
import { liveWorkerCount, MAX_WORKERS, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmRequest } from './test-support/wasm-request.js';

beforeAll(() => buildWasmModules(), 120_000);
afterAll(async () => {
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

/** The next call on the same runner works, and quickly: the runaway left nothing behind. */
async function nextCallWorks(): Promise<void> {
  const started = performance.now();
  await expect(runWasm(wasmRequest(testModule('word-count'), { input: { text: 'still here' } }))).resolves.toMatchObject({ words: 2 });
  expect(performance.now() - started).toBeLessThan(2_000);
}

describe('runWasm limits', () => {
  it('stops a runaway loop when its fuel runs out, deterministically, as resource_exhausted fuel', async () => {
    const request = () => wasmRequest(testModule('spin'), { options: { fuel: 5_000_000 } });
    const error = { code: 'resource_exhausted', limit: 'fuel', message: expect.stringContaining('compute budget of 5,000,000 fuel') };
    await expect(runWasm(request())).rejects.toMatchObject(error);
    await expect(runWasm(request())).rejects.toMatchObject(error);
    await nextCallWorks();
  });

  it('meters the start function too: a loop in top-level code runs out of fuel before any export is called', async () => {
    await expect(runWasm(wasmRequest(testModule('start-spin'), { options: { fuel: 1_000_000 } }))).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'fuel',
    });
  });

  it('gives a pure tool enough fuel by default', async () => {
    await expect(runWasm(wasmRequest(testModule('word-count'), { input: { text: 'word '.repeat(100_000) } }))).resolves.toMatchObject({ words: 100_000 });
  });

  it('stops a runaway loop at its timeout, terminating its worker, as resource_exhausted time', async () => {
    const before = liveWorkerCount();
    const started = performance.now();
    const request = wasmRequest(testModule('spin'), { timeoutMs: 300, options: { fuel: Number.MAX_SAFE_INTEGER } });
    await expect(runWasm(request)).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'time',
      message: expect.stringContaining('time limit of 300 ms'),
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    // The runaway's worker is gone by the time the call has failed.
    expect(liveWorkerCount()).toBeLessThanOrEqual(before);
    await nextCallWorks();
  });

  it('stops the module at once when the call is cancelled, as cancelled', async () => {
    const controller = new AbortController();
    const running = runWasm(wasmRequest(testModule('spin'), { signal: controller.signal, options: { fuel: Number.MAX_SAFE_INTEGER } }));
    setTimeout(() => controller.abort(new Error('the user interrupted')), 100);
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    await nextCallWorks();
  });

  it('runs at most MAX_WORKERS workers at once: further calls wait for one, and all of them finish', async () => {
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, liveWorkerCount())), 1);
    const calls = Array.from({ length: 3 * MAX_WORKERS }, () => runWasm(wasmRequest(testModule('spin'), { options: { fuel: 2_000_000 } })));
    const outcomes = await Promise.allSettled(calls);
    clearInterval(watch);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as { limit?: string }).limit)).toEqual(calls.map(() => 'fuel'));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAX_WORKERS);
  });

  it('ends the wait for a worker when the call is cancelled meanwhile', async () => {
    const busy = Array.from({ length: MAX_WORKERS }, () => new AbortController());
    const running = busy.map((controller) =>
      runWasm(wasmRequest(testModule('spin'), { signal: controller.signal, options: { fuel: Number.MAX_SAFE_INTEGER } })),
    );
    const waiting = new AbortController();
    const queued = runWasm(wasmRequest(testModule('word-count'), { signal: waiting.signal }));
    setTimeout(() => waiting.abort(), 100);
    await expect(queued).rejects.toMatchObject({ code: 'cancelled' });
    busy.forEach((controller) => controller.abort());
    await Promise.allSettled(running);
    expect(liveWorkerCount()).toBeLessThanOrEqual(MAX_WORKERS);
    await nextCallWorks();
  });

  it('refuses a call whose signal is already aborted without running it', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runWasm(wasmRequest(testModule('word-count'), { signal: controller.signal }))).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('stops a module that allocates past its memory cap as resource_exhausted memory, naming the cap', async () => {
    const request = wasmRequest(testModule('memory-bomb'), { maxMemoryBytes: 16 * 1024 * 1024 });
    await expect(runWasm(request)).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'memory',
      message: expect.stringContaining('16 MiB memory cap'),
    });
    await nextCallWorks();
  });

  it('caps a memory the module imports, whatever maximum it declares', async () => {
    const request = wasmRequest(testModule('imported-memory-bomb'), { maxMemoryBytes: 8 * 1024 * 1024 });
    await expect(runWasm(request)).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'memory',
      message: expect.stringMatching(/8 MiB memory cap \(maxMemory; it had [\d.]+ (KiB|MiB)\)/),
    });
  });

  it('holds the default cap of 64 MiB', async () => {
    await expect(runWasm(wasmRequest(testModule('memory-bomb')))).rejects.toMatchObject({
      limit: 'memory',
      message: expect.stringContaining('64 MiB memory cap'),
    });
  });

  it('refuses a module whose memory starts above the cap before running it', async () => {
    await expect(runWasm(wasmRequest(testModule('word-count'), { maxMemoryBytes: 1024 }))).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'memory',
      message: expect.stringContaining('more than its 0 bytes memory cap'),
    });
  });
});
