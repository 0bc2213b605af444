import fs from 'node:fs/promises';
import { SourceError } from '../source-error.js';
import { MemoryCapError } from './binary/memory-cap-error.js';
import { prepareModule, type ImportedMemory } from './binary/prepare-module.js';
import { WasmFormatError } from './binary/wasm-format-error.js';
import { webAssembly, type CompiledModule } from './webassembly-api.js';
import { formatBytes, PAGE_BYTES } from './wasm-limits.js';

/** A module rewritten for its cap and compiled once: each call instantiates it afresh. */
export interface LoadedModule {
  module: CompiledModule;
  importedMemories: ImportedMemory[];
}

/** Compiled modules kept, most recently used last. */
const MAX_CACHED = 32;
const cache = new Map<string, Promise<LoadedModule>>();

/**
 * The module at `file`, prepared for a memory cap of `capPages` and compiled; compiled once per file
 * version (path, inode, size, modification time) and cap. A failed load is not kept.
 */
export async function loadModule(file: string, capPages: number): Promise<LoadedModule> {
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new SourceError(
      'not_found',
      `the WebAssembly module ${file} cannot be read (${error.code ?? error.message}): build it, or fix the path the tool names`,
    );
  });
  if (!stat.isFile()) throw new SourceError('not_found', `the WebAssembly module ${file} is not a file`);
  const key = [file, stat.dev, stat.ino, stat.size, stat.mtimeMs, capPages].join('\0');
  let loaded = cache.get(key);
  if (loaded) cache.delete(key);
  else {
    loaded = compile(file, capPages);
    loaded.catch(() => cache.delete(key));
  }
  cache.set(key, loaded);
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_CACHED) break;
    cache.delete(oldest);
  }
  return loaded;
}

async function compile(file: string, capPages: number): Promise<LoadedModule> {
  const bytes = await fs.readFile(file);
  if (!webAssembly.validate(bytes)) {
    const reason = await webAssembly.compile(bytes).then(
      () => 'it does not validate',
      (error: Error) => error.message,
    );
    throw new SourceError('source_failed', `${file} is not a valid WebAssembly module: ${reason}`);
  }
  let prepared;
  try {
    prepared = prepareModule(bytes, capPages);
  } catch (error) {
    if (error instanceof MemoryCapError && error.what === 'memory')
      throw new SourceError(
        'resource_exhausted',
        `the module's memory starts at ${formatBytes(error.asked * PAGE_BYTES)}, more than its ${formatBytes(capPages * PAGE_BYTES)} memory cap (maxMemory)`,
        'memory',
      );
    if (error instanceof MemoryCapError || error instanceof WasmFormatError) throw new SourceError('source_failed', `${file} cannot be run: ${error.message}`);
    throw error;
  }
  const module = await webAssembly.compile(prepared.bytes).catch((error: Error) => {
    throw new SourceError('source_failed', `${file} cannot be run: its metered form does not compile (${error.message})`);
  });
  return { module, importedMemories: prepared.importedMemories };
}

/** Forgets every compiled module (for benchmarks that measure a cold start). */
export function clearModuleCache(): void {
  cache.clear();
}
