import crypto from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { enableCompileCache } from './compile-cache-folder.js';

export type PreloadRoute = 'built-in' | 'already-loaded' | 'from-cache' | 'compiled' | 'disabled' | 'fallback';

/**
 * Loads `typescript` — 9 MB of JavaScript that V8 otherwise compiles anew at every start (~0.2 s on
 * the benchmark machine) — with a V8 code cache, so a command that needs the compiler starts sooner.
 * Node ≥ 22.1 has this built in (`module.enableCompileCache()`, which `tsc` turns on itself); on
 * Node 20 the module is compiled through `vm.Script` with cached data kept in
 * `node_modules/.cache/toolwright/` (or the temp dir). V8 checks the data against the source, its
 * own version and its flags, but not against damage (damaged code data can crash the process), so the
 * file carries a sha-256 of its data, checked before V8 sees it. Stale or damaged data is compiled
 * and written anew when the process exits. `TOOLWRIGHT_NO_CODE_CACHE=1` turns it off; any failure falls back to a plain `require`.
 *
 * Not the `v8-compile-cache` package: it compiles without a dynamic-import callback, which breaks
 * `import()` in every module it loads (the CLI loads its commands with `import()`).
 */
export function preloadTypeScript(options: { cacheDir?: string } = {}): PreloadRoute {
  if (process.env.TOOLWRIGHT_NO_CODE_CACHE === '1') return 'disabled';
  // In the folder Toolwright's processes share, never TMPDIR's (`compileCacheFolder`); already on when started by `toolwright`.
  if (typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return enableCompileCache() ? 'built-in' : 'disabled';
  const load = createRequire(__filename);
  let file: string;
  try {
    file = load.resolve('typescript');
  } catch {
    return 'fallback'; // the command reports the missing compiler in its own words
  }
  if (load.cache[file]) return 'already-loaded';
  try {
    return compileWithCache(file, options.cacheDir ?? defaultCacheDir(file), load);
  } catch {
    delete load.cache[file];
    return 'fallback';
  }
}

function compileWithCache(file: string, cacheDir: string, load: NodeJS.Require): PreloadRoute {
  const version = (JSON.parse(fs.readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')) as { version: string }).version;
  const cacheFile = path.join(cacheDir, `typescript-${version}-v8-${process.versions.v8}-${process.arch}.cache`);
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod = new Module(file, module);
  mod.filename = file;
  load.cache[file] = mod;
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const fresh = cachedData !== undefined && !script.cachedDataRejected;
  // Written at exit, so the data covers the functions this run compiled, not only the top level.
  if (!fresh) process.once('exit', () => writeCache(cacheFile, () => script.createCachedData()));
  return fresh ? 'from-cache' : 'compiled';
}

const DIGEST_BYTES = 32;

/** The cached data if the file is whole: its first 32 bytes are the sha-256 of the rest. */
function readCache(cacheFile: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const data = file.subarray(DIGEST_BYTES);
  const digest = crypto.createHash('sha256').update(data).digest();
  return file.length > DIGEST_BYTES && digest.equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function writeCache(cacheFile: string, data: () => Buffer): void {
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    const payload = data();
    fs.writeFileSync(temporary, Buffer.concat([crypto.createHash('sha256').update(payload).digest(), payload]));
    fs.renameSync(temporary, cacheFile);
  } catch {
    // A read-only or full disk only costs the next start its head start.
  }
}

/** `<node_modules>/.cache/toolwright` beside the compiler, else the temp dir. */
function defaultCacheDir(file: string): string {
  const nodeModules = path.resolve(file, '..', '..', '..');
  return path.basename(nodeModules) === 'node_modules' ? path.join(nodeModules, '.cache', 'toolwright') : path.join(os.tmpdir(), 'toolwright-code-cache');
}
