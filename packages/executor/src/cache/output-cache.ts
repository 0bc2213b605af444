import path from 'node:path';
import type { ToolDeclaration } from '@toolwright/schema';
import { cacheKey, sessionCacheKey, type CallScope } from './cache-key.js';
import { DiskCache } from './disk-cache.js';
import { MemoryCache } from './memory-cache.js';

/**
 * Output caching by determinism level (`ExecutorOptions.cache`): `pure` tools' outputs on disk, shared across
 * sessions and processes; `deterministic` tools' in this executor's memory, per session and workspace. `maybe`
 * and `non-deterministic` tools are never cached, nor are errors or content results.
 */
export interface OutputCacheOptions {
  /** Where `pure` tools' outputs are kept (default: `.toolwright/cache` in the executor's `workspace`). */
  dir?: string;
  /** Most bytes the directory's entries take (default 64 MiB); past it the least recently used are removed. */
  maxBytes?: number;
  /** Most characters of output JSON kept in memory for `deterministic` tools (default 16 Mi); the least recently used go first. */
  maxMemoryChars?: number;
}

export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CACHE_MAX_MEMORY_CHARS = 16 * 1024 * 1024;

/** Where one call's output is looked up and kept: the store that answers for its tool's determinism, and the key. */
export interface CacheSlot {
  store: 'disk' | 'memory';
  key: string;
  tool: string;
  /** The tool's own output as canonical JSON, when after-hooks may change what the pipeline goes on with. */
  json?: string | undefined;
}

/** The two stores behind `ExecutorOptions.cache`; see `OutputCacheOptions`. */
export class OutputCache {
  readonly disk: DiskCache;
  private readonly memory: MemoryCache;

  constructor(options: OutputCacheOptions, workspace: string | undefined) {
    const dir = options.dir ?? (workspace !== undefined ? path.join(workspace, '.toolwright', 'cache') : undefined);
    if (dir === undefined)
      throw new TypeError("ExecutorOptions.cache: give cache.dir, or the executor's workspace (pure tools' outputs are kept in <workspace>/.toolwright/cache)");
    this.disk = new DiskCache(path.resolve(dir), positive(options.maxBytes, 'maxBytes') ?? DEFAULT_CACHE_MAX_BYTES);
    this.memory = new MemoryCache(positive(options.maxMemoryChars, 'maxMemoryChars') ?? DEFAULT_CACHE_MAX_MEMORY_CHARS);
  }

  /** The slot of a call, or undefined when its tool's determinism allows no caching. */
  slotFor(declaration: ToolDeclaration, argsJson: string, context: CallScope): CacheSlot | undefined {
    switch (declaration.metadata.determinism) {
      case 'pure':
        return { store: 'disk', key: cacheKey(declaration, argsJson), tool: declaration.name };
      case 'deterministic':
        return { store: 'memory', key: sessionCacheKey(declaration, argsJson, context), tool: declaration.name };
      default:
        return undefined;
    }
  }

  /** The output JSON kept for the slot, or undefined; a disk lookup waits, a memory one answers at once. Never rejects. */
  lookup(slot: CacheSlot): string | undefined | Promise<string | undefined> {
    return slot.store === 'memory' ? this.memory.get(slot.key) : this.disk.get(slot.key);
  }

  /** Keeps a completed call's output JSON. Never rejects: an output that cannot be kept is simply not cached. */
  store(slot: CacheSlot, json: string): void | Promise<void> {
    if (slot.store === 'memory') this.memory.set(slot.key, json);
    else return this.disk.set(slot.key, slot.tool, json);
  }
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
    throw new TypeError(`ExecutorOptions.cache.${name} must be a positive number, not ${String(value)}`);
  return value;
}
