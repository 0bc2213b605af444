// A subprocess tool as the model meets it: declared with source.subprocess, registered, and called through the executor.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import type { SubprocessToolOptions } from '../source-options.js';
import { source } from '../source.js';
import { processesWith, untilRunning } from './test-support/process-watch.js';
import { folder, newMarker, snapshot } from './test-support/python-tool.js';
import { testSandboxMode } from './test-support/sandbox-here.js';
import { subprocessDeclaration, type TestCall } from './test-support/subprocess-request.js';

const TOOLS = fileURLToPath(new URL('../../../../examples/subprocess-tools/tools/', import.meta.url));

/** `source.subprocess` as compiled code calls it: the transformer appends the declaration and the declaring file's folder. */
type Compiled = (command: string[], options: SubprocessToolOptions, declaration: ToolDeclaration, base: string) => (text: string) => Promise<unknown>;

function executorFor(command: string[], options: SubprocessToolOptions, call: TestCall = {}): ToolExecutor {
  const declaration = { ...subprocessDeclaration('word_stats', call), returns: { type: 'object' as const } };
  const tool = (source.subprocess as unknown as Compiled)(command, { sandbox: testSandboxMode(), ...options }, declaration, TOOLS);
  const registry = new ToolRegistry();
  registry.register(tool);
  return new ToolExecutor({ registry, audit: new MemoryAuditSink() });
}

describe('a subprocess tool through the executor', () => {
  it('completes with the JSON the program prints, run in the call’s workspace', async () => {
    const workspace = folder('tw-subprocess-ws-');
    const before = snapshot(workspace);
    const executor = executorFor(['python3', './word_stats.py'], {}, { tier: 'read-only' });
    const result = await executor.executeToolCall({ id: 'c1', name: 'word_stats', arguments: { text: 'to be or not to be' } }, { workspace });
    const expected = {
      words: 6,
      lines: 1,
      top: [
        { word: 'be', count: 2 },
        { word: 'to', count: 2 },
        { word: 'not', count: 1 },
        { word: 'or', count: 1 },
      ],
    };
    expect(result).toMatchObject({ status: 'completed', output: expected });
    expect(JSON.parse(result.content)).toEqual(expected);
    expect(snapshot(workspace)).toEqual(before);
  });

  it('fails with tool_failed carrying the runner’s code when a limit stops the program', async () => {
    const executor = executorFor(['python3', '-c', 'while True: pass'], { cpuSeconds: 1 });
    const result = await executor.executeToolCall({ id: 'c2', name: 'word_stats', arguments: { text: '' } });
    expect(result).toMatchObject({
      status: 'error',
      error: { code: 'tool_failed', errorCode: 'resource_exhausted', message: 'the program used more than its 1 CPU seconds and was stopped (SIGXCPU)' },
    });
  });

  it('ends at the tool’s timeout, and the program and what it started are stopped soon after', async () => {
    const marker = newMarker();
    const executor = executorFor(['python3', '-c', 'import os, time\nos.fork()\nwhile True: time.sleep(0.01)', marker], {}, { timeoutMs: 1500 });
    const call = executor.executeToolCall({ id: 'c3', name: 'word_stats', arguments: { text: '' } });
    const seen = await untilRunning(marker);
    expect(seen.length).toBeGreaterThan(0);
    expect(await call).toMatchObject({ status: 'error', error: { code: 'timeout', timeoutMs: 1500 } });
    // The executor answers at the deadline; the runner's TERM, then KILL after its grace, follows at once.
    const until = Date.now() + 5000;
    while (processesWith(marker).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(processesWith(marker)).toEqual([]);
    expect(fs.existsSync(path.join(TOOLS, '__pycache__'))).toBe(false);
  });
});
