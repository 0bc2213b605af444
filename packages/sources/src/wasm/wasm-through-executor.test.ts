// A WebAssembly tool as the model meets it: declared with source.wasm, registered, and called through the executor.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import type { WasmToolOptions } from '../source-options.js';
import { source } from '../source.js';
import { liveWorkerCount, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmDeclaration, type WasmCall } from './test-support/wasm-request.js';

/** `source.wasm` as compiled code calls it: the transformer appends the declaration and the declaring file's folder. */
type Compiled = (module: string, options: WasmToolOptions, declaration: ToolDeclaration, base: string) => (...args: unknown[]) => Promise<unknown>;

const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-wasm-executor-')));
beforeAll(() => buildWasmModules(), 120_000);
afterAll(async () => {
  fs.rmSync(workspace, { recursive: true, force: true });
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

function executor(module: string, options: WasmToolOptions, call: WasmCall & { parameters: string[] }) {
  const declaration = { ...wasmDeclaration(call), parameterOrder: call.parameters };
  declaration.parameters = {
    type: 'object',
    properties: Object.fromEntries(call.parameters.map((name) => [name, {}])),
    required: [],
    additionalProperties: false,
  };
  const registry = new ToolRegistry();
  // A relative module path is relative to the declaring file's folder, the transformer's hidden fourth argument.
  registry.register((source.wasm as unknown as Compiled)(path.relative(path.dirname(module), module), options, declaration, path.dirname(module)));
  return new ToolExecutor({ registry, audit: new MemoryAuditSink() });
}

describe('a WebAssembly tool through the executor', () => {
  it('completes with the JSON the module returns', async () => {
    const exec = executor(testModule('word-count'), {}, { parameters: ['text'] });
    const result = await exec.executeToolCall({ id: 'c1', name: 'wasm_tool', arguments: { text: 'one two three' } });
    expect(result).toMatchObject({ status: 'completed', output: { words: 3, lines: 1, chars: 13, text: 'one two three' } });
  });

  it('fails with tool_failed carrying resource_exhausted when the fuel runs out', async () => {
    const exec = executor(testModule('spin'), { fuel: 1_000_000 }, { parameters: [] });
    const result = await exec.executeToolCall({ id: 'c2', name: 'wasm_tool', arguments: {} });
    expect(result).toMatchObject({
      status: 'error',
      error: { code: 'tool_failed', errorCode: 'resource_exhausted', message: expect.stringContaining('fuel') },
    });
  });

  it("confines the module's files to the call's workspace, and a read-only tool to reading", async () => {
    fs.writeFileSync(path.join(workspace, 'in.txt'), 'from the workspace');
    const exec = executor(testModule('files'), {}, { parameters: ['op', 'path', 'text', 'strict'] });
    const read = await exec.executeToolCall({ id: 'c3', name: 'wasm_tool', arguments: { op: 'read', path: 'in.txt' } }, { workspace });
    expect(read).toMatchObject({ status: 'completed', output: { code: 0, content: 'from the workspace' } });
    const write = await exec.executeToolCall(
      { id: 'c4', name: 'wasm_tool', arguments: { op: 'write', path: 'out.txt', text: 'x', strict: true } },
      { workspace },
    );
    expect(write).toMatchObject({ status: 'error', error: { code: 'tool_failed', errorCode: 'access_denied' } });
    expect(fs.existsSync(path.join(workspace, 'out.txt'))).toBe(false);
  });

  it('times out a runaway module at the tool timeout and leaves no worker running it', async () => {
    const exec = executor(testModule('spin'), { fuel: Number.MAX_SAFE_INTEGER }, { parameters: [], timeoutMs: 300 });
    await stopIdleWorkers();
    const result = await exec.executeToolCall({ id: 'c5', name: 'wasm_tool', arguments: {} });
    expect(result).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    // The executor answers at the deadline; the runner terminates the worker as the signal aborts.
    await expect.poll(() => liveWorkerCount(), { timeout: 2_000 }).toBe(0);
  });
});
