import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { Determinism, ToolMetadata } from '@toolwright/schema';
import { MemoryAuditSink } from '../memory-audit-sink.js';
import { ToolExecutor } from '../tool-executor.js';
import type { ExecutorOptions } from '../executor-options.js';
import { declaration, defineTool } from './declare-tool.js';

/** Helpers of the output cache's tests: temporary folders (removed after the file's tests), a counting tool, an executor. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cache-'));
  dirs.push(dir);
  return dir;
}

/** A tool of the given determinism that counts its runs; `fail` makes it throw, `pad` lengthens its output. */
export function countingTool(
  name: string,
  determinism: Determinism,
  runs: { count: number },
  options: { fail?: boolean; metadata?: Partial<ToolMetadata> } = {},
) {
  return defineTool(
    async (text: string, pad?: number) => {
      runs.count++;
      if (options.fail) throw new Error('it failed');
      return { echoed: text, padding: 'x'.repeat(pad ?? 0), run: runs.count };
    },
    declaration('x', { text: { type: 'string' }, pad: { type: 'integer' } }, { required: ['text'], metadata: { determinism, ...options.metadata } }),
  ) as unknown as (...args: never[]) => unknown;
}

export type SetupOptions = Partial<ExecutorOptions> & { determinism?: Determinism; fail?: boolean; metadata?: Partial<ToolMetadata> };

export function setup(options: SetupOptions = {}) {
  const runs = { count: 0 };
  const registry = new ToolRegistry();
  const tool = countingTool('x', options.determinism ?? 'pure', runs, { fail: options.fail ?? false, metadata: options.metadata ?? {} });
  registry.register(tool);
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({ registry, audit, cache: { dir: options.cache?.dir ?? tempDir(), ...options.cache }, ...withoutCache(options) });
  return { executor, audit, runs, registry };
}

function withoutCache(options: SetupOptions): Partial<ExecutorOptions> {
  const { cache: _cache, determinism: _determinism, fail: _fail, metadata: _metadata, ...rest } = options;
  return rest;
}

export const call = (args: Record<string, unknown>, id = 'call_1') => ({ id, name: 'x', arguments: JSON.stringify(args) });
