import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { runWasm } from './run-wasm.js';
import { liveWorkerCount, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmRequest } from './test-support/wasm-request.js';

beforeAll(() => buildWasmModules(), 120_000);
afterAll(async () => {
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

describe(runWasm, () => {
  it('runs the module on the arguments and answers its JSON result', async () => {
    const text = 'two words\nand a line — ünïcode';
    const result = await runWasm(wasmRequest(testModule('word-count'), { input: { text } }));
    expect(result).toEqual({ words: 7, lines: 2, chars: text.length, text });
  });

  it('passes the module log lines on as progress', async () => {
    const messages: string[] = [];
    await runWasm(wasmRequest(testModule('word-count'), { input: { text: 'a b c' }, progress: (update) => messages.push(update.message ?? '') }));
    expect(messages).toEqual(['counted 3 words']);
  });

  it('starts a fresh instance for each call, so nothing a call leaves in memory reaches the next', async () => {
    const results = await Promise.all(['one', 'two three', 'four five six'].map((text) => runWasm(wasmRequest(testModule('word-count'), { input: { text } }))));
    expect(results.map((result) => (result as { words: number }).words)).toEqual([1, 2, 3]);
    expect(liveWorkerCount()).toBeLessThanOrEqual(4);
  });

  it.for([
    ['unreachable', /the module trapped: unreachable/],
    ['abort', /the module aborted: the input is not what this tool expects \(traps.ts:\d+:\d+\)/],
    ['bounds', /the module trapped: memory access out of bounds/],
    ['recursion', /the module trapped: Maximum call stack size exceeded/],
  ] as const)('reports a %s trap as source_failed with its message', async ([mode, message]) => {
    await expect(runWasm(wasmRequest(testModule('traps'), { input: { mode } }))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringMatching(message),
    });
    // The worker survived the trap and serves the next call.
    await expect(runWasm(wasmRequest(testModule('traps'), { input: { mode: 'none' } }))).resolves.toEqual({});
  });

  it.for([
    ['text', 'invalid_output', /is not JSON .*"this is not JSON"/],
    ['utf8', 'invalid_output', /is not valid UTF-8/],
    ['outside', 'invalid_output', /lies outside the module memory/],
  ] as const)('refuses a %s result as %s', async ([mode, code, message]) => {
    await expect(runWasm(wasmRequest(testModule('bad-output'), { input: { mode } }))).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('refuses a result past maxOutputBytes as resource_exhausted output, naming the cap', async () => {
    const request = wasmRequest(testModule('bad-output'), { input: { mode: 'huge' }, options: { maxOutputBytes: 64 * 1024 } });
    await expect(runWasm(request)).rejects.toMatchObject({
      code: 'resource_exhausted',
      limit: 'output',
      message: expect.stringContaining('64 KiB output cap'),
    });
  });

  it('answers not_found for a module file that does not exist', async () => {
    await expect(runWasm(wasmRequest('/nowhere/missing.wasm'))).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('/nowhere/missing.wasm'),
    });
  });

  it('answers source_failed for a file that is not a WebAssembly module', async () => {
    await expect(runWasm(wasmRequest(new URL(import.meta.url).pathname))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining('is not a valid WebAssembly module'),
    });
  });

  it('answers source_failed, naming the functions there are, for a missing export', async () => {
    await expect(runWasm(wasmRequest(testModule('word-count'), { options: { export: 'count' } }))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining("exports no function 'count' (its functions: alloc, call)"),
    });
  });

  it('answers source_failed for a module importing what the runner does not provide', async () => {
    await expect(runWasm(wasmRequest(testModule('unknown-import')))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining("imports function 'elsewhere.launch_missiles'"),
    });
  });

  it('refuses limits that are not positive whole numbers as invalid_config', async () => {
    await expect(runWasm(wasmRequest(testModule('word-count'), { options: { fuel: 0 } }))).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
