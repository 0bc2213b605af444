import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolDeclaration } from '@toolwright/schema';
import { cacheKey, sessionCacheKey, type CallScope } from './cache-key.js';
import { checkCacheFolder, DiskCache } from './disk-cache.js';
import { MemoryCache } from './memory-cache.js';

/**
 * Output caching (`ExecutorOptions.cache`). A call's output is cached only when its tool is `tier: 'read-only'`,
 * declares no side effect but `'none'` (`sideEffects` empty or `['none']`) and is `pure` (on disk, shared across
 * sessions and processes) or `deterministic` (in this executor's memory, per session, actor, capabilities and
 * workspace; a call without a `sessionId` is not cached). Every other tool — one that reads or changes files, the
 * network, a database or processes, whatever its determinism — always runs; nor are errors or content results kept.
 *
 * The folder is per user, outside the workspace, so a cloned repository cannot ship entries: the executor refuses
 * (a `TypeError` at construction) a folder that is a symbolic link, not a folder, or not owned by the current user.
 */
export interface OutputCacheOptions {
  /**
   * Where `pure` tools' outputs are kept (default: `$XDG_CACHE_HOME/toolwright/outputs/<workspace id>`, else
   * `~/.cache/toolwright/outputs/<workspace id>`; the id is the first 16 hex digits of the sha-256 of the
   * workspace's real path).
   */
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
    const dir = options.dir ?? (workspace !== undefined ? defaultCacheDir(workspace) : undefined);
    if (dir === undefined)
      throw new TypeError(
        "ExecutorOptions.cache: give cache.dir, or the executor's workspace (pure tools' outputs are kept in ~/.cache/toolwright/outputs/<workspace id>)",
      );
    const problem = checkCacheFolder(path.resolve(dir));
    if (problem !== undefined) throw new TypeError(`ExecutorOptions.cache: ${problem}`);
    this.disk = new DiskCache(path.resolve(dir), positive(options.maxBytes, 'maxBytes') ?? DEFAULT_CACHE_MAX_BYTES);
    this.memory = new MemoryCache(positive(options.maxMemoryChars, 'maxMemoryChars') ?? DEFAULT_CACHE_MAX_MEMORY_CHARS);
  }

  /** The slot of a call, or undefined when its tool may not be cached (see `cacheable`) or, for memory, it has no session. */
  slotFor(declaration: ToolDeclaration, argsJson: string, context: CallScope): CacheSlot | undefined {
    if (!cacheable(declaration)) return undefined;
    switch (declaration.metadata.determinism) {
      case 'pure':
        return { store: 'disk', key: cacheKey(declaration, argsJson), tool: declaration.name };
      case 'deterministic':
        // Without a session the callers cannot be told apart (a stateless HTTP server): nothing is shared.
        if (context.sessionId === undefined) return undefined;
        return { store: 'memory', key: sessionCacheKey(declaration, argsJson, context), tool: declaration.name };
      default:
        return undefined;
    }
  }

  /** The output JSON kept for the slot, or undefined; a disk lookup waits, a memory one answers at once. Never rejects. */
  lookup(slot: CacheSlot, signal?: AbortSignal): string | undefined | Promise<string | undefined> {
    return slot.store === 'memory' ? this.memory.get(slot.key) : this.disk.get(slot.key, signal);
  }

  /** Keeps a completed call's output JSON. Never rejects: an output that cannot be kept is simply not cached. */
  store(slot: CacheSlot, json: string): void | Promise<void> {
    if (slot.store === 'memory') this.memory.set(slot.key, json);
    else return this.disk.set(slot.key, slot.tool, json);
  }

  /** Forgets the slot's entry (one found corrupt). Never rejects. */
  evict(slot: CacheSlot): void | Promise<void> {
    if (slot.store === 'memory') this.memory.delete(slot.key);
    else return this.disk.delete(slot.key);
  }
}

/**
 * Whether a tool's outputs may be cached at all: read-only, with no side effect but `'none'`. A tool that reads
 * files, the network or a database answers from the world, which changes; one that writes must run every time.
 */
export function cacheable(declaration: ToolDeclaration): boolean {
  const { tier, sideEffects } = declaration.metadata;
  return tier === 'read-only' && sideEffects.every((effect) => effect === 'none');
}

/** `$XDG_CACHE_HOME/toolwright/outputs/<id>` (else `~/.cache/...`), the id naming the workspace's real path. */
export function defaultCacheDir(workspace: string, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  let real = path.resolve(workspace);
  try {
    real = fs.realpathSync.native(real);
  } catch {
    // A workspace not yet created is named by its resolved path.
  }
  const id = crypto.createHash('sha256').update(real).digest('hex').slice(0, 16);
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const root = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache');
  return path.join(root, 'toolwright', 'outputs', id);
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
    throw new TypeError(`ExecutorOptions.cache.${name} must be a positive number, not ${String(value)}`);
  return value;
}
