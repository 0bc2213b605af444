import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { nameBytes } from './binary/byte-writer.js';
import { runWasm } from './run-wasm.js';
import { busyWorkerCount, liveWorkerCount, MAX_WORKERS, stopIdleWorkers, waitingCallCount } from './test-support/live-workers.js';
import { exported, moduleBytes, type ModuleParts } from './test-support/module-bytes.js';
import { testModule, wasmRequest } from './test-support/wasm-request.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const handWritten = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-wasm-limits-'));

beforeAll(() => buildWasmModules(), 120_000);
afterAll(async () => {
  fs.rmSync(handWritten, { recursive: true, force: true });
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

/** A hand-written module's file. */
function moduleFile(name: string, parts: ModuleParts): string {
  const file = path.join(handWritten, `${name}.wasm`);
  fs.writeFileSync(file, moduleBytes(parts));
  return file;
}

/** The next call on the same runner works, and quickly: the runaway left nothing behind. */
async function nextCallWorks(): Promise<void> {
  const elapsed = stopwatch();
  await expect(runWasm(wasmRequest(testModule('word-count'), { input: { text: 'still here' } }))).resolves.toMatchObject({ words: 2 });
  expect(elapsed()).toBeLessThan(2_000);
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
    const elapsed = stopwatch();
    const request = wasmRequest(testModule('spin'), { timeoutMs: 300, options: { fuel: Number.MAX_SAFE_INTEGER } });
    await expect(runWasm(request)).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'time',
      message: expect.stringContaining('time limit of 300 ms'),
    });
    expect(elapsed()).toBeLessThan(3_000);
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
    try {
      // Each call compiles its module before it asks for a worker: the queued call starts once every worker spins,
      // and is cancelled once it is known to wait (not after a fixed delay, which a loaded machine outruns).
      await vi.waitFor(() => expect(busyWorkerCount()).toBe(MAX_WORKERS), { timeout: 30_000, interval: 10 });
      const queued = runWasm(wasmRequest(testModule('word-count'), { signal: waiting.signal }));
      await vi.waitFor(() => expect(waitingCallCount()).toBe(1), { timeout: 30_000, interval: 5 });
      waiting.abort();
      await expect(queued).rejects.toMatchObject({ code: 'cancelled' });
      expect(waitingCallCount()).toBe(0);
    } finally {
      // Whatever happened, the spinning calls end here: left running, they would hold every worker for the next test.
      busy.forEach((controller) => controller.abort());
      await Promise.allSettled(running);
    }
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

  it('refuses a module with several memories, each within the cap, before it runs (the cap is for the module)', async () => {
    // Eight memories of 1 MiB under a 1 MiB cap: multi-memory V8s (Node 22 on) would run it with 8 MiB.
    // call: traps unless memory 7 has its 16 pages, then returns the JSON `1` (written at 0 in memory 0).
    // prettier-ignore
    const call = [0x00, 0x3f, 0x07, 0x41, 16, 0x47, 0x04, 0x40, 0x00, 0x0b, 0x41, 0x00, 0x41, 0x31, 0x3a, 0x00, 0x00, 0x42, 0x01, 0x0b];
    const file = moduleFile('eight-memories', {
      types: [
        [0x60, 1, 0x7f, 1, 0x7f],
        [0x60, 2, 0x7f, 0x7f, 1, 0x7e],
      ],
      functions: [0, 1],
      memories: Array.from({ length: 8 }, () => [0x00, 16]),
      exports: [exported('memory', 2, 0), exported('alloc', 0, 0), exported('call', 0, 1)],
      code: [[0x00, 0x41, 0x80, 0x08, 0x0b], call],
    });
    // Node 20's V8 refuses it itself, at validation; later ones leave it to the rewriter.
    await expect(runWasm(wasmRequest(file, { maxMemoryBytes: 1024 * 1024 }))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringMatching(/memor/i),
    });
  });

  it('stops reading what a module logs once its 64 KiB of log are used: logging 16 MiB 4,000 times takes no time', async () => {
    // call: log(0, 16 MiB) 4,000 times, then return the JSON `1`. Decoding each range in full would take minutes.
    // prettier-ignore
    const call = [0x01, 0x01, 0x7f, 0x41, 0xa0, 0x1f, 0x21, 0x02, 0x03, 0x40, 0x41, 0x00, 0x41, 0x80, 0x80, 0x80, 0x08, 0x10, 0x00,
      0x20, 0x02, 0x41, 0x01, 0x6b, 0x22, 0x02, 0x0d, 0x00, 0x0b, 0x41, 0x00, 0x41, 0x31, 0x3a, 0x00, 0x00, 0x42, 0x01, 0x0b];
    const file = moduleFile('log-flood', {
      types: [
        [0x60, 1, 0x7f, 1, 0x7f],
        [0x60, 2, 0x7f, 0x7f, 1, 0x7e],
        [0x60, 2, 0x7f, 0x7f, 0],
      ],
      imports: [[...nameBytes('toolwright'), ...nameBytes('log'), 0x00, 2]],
      functions: [0, 1],
      memories: [[0x00, 0x80, 0x02]],
      exports: [exported('memory', 2, 0), exported('alloc', 0, 1), exported('call', 0, 2)],
      code: [[0x00, 0x41, 0x80, 0x08, 0x0b], call],
    });
    const logged: string[] = [];
    const request = wasmRequest(file, { timeoutMs: 5_000, progress: (update) => logged.push(update.message ?? '') });
    await expect(runWasm(request)).resolves.toBe(1);
    expect(logged.join('').length).toBe(64 * 1024);
  });
});
