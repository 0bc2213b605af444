// Builds the WebAssembly modules of the tests and examples from their AssemblyScript sources (no binary
// is committed): each `*.ts` directly in a source folder is a module; its `lib/` folder holds what the
// modules share. A module whose output is newer than its sources (and this script) is left as it is.
// A module's first line may add compiler options: `// asc: --importMemory`.
// Usage: node tools/wasm/build-modules.mjs [--force]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Source folders and where their modules go (both output folders are git-ignored). */
export const WASM_MODULE_FOLDERS = [
  { sources: 'packages/sources/test-modules', out: 'packages/sources/test-modules/build' },
  { sources: 'examples/wasm-tools/plugin', out: 'examples/wasm-tools/build' },
];

/**
 * Compiles every stale module with the AssemblyScript compiler's JS API and resolves to the paths it
 * wrote. Each output is written beside its final name and renamed into place, so test files that build
 * at the same time never read a partial module.
 * @param {{ force?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<string[]>}
 */
export async function buildWasmModules(options = {}) {
  const built = [];
  for (const folder of WASM_MODULE_FOLDERS) {
    const sources = path.join(ROOT, folder.sources);
    if (!fs.existsSync(sources)) continue;
    const out = path.join(ROOT, folder.out);
    const shared = [fileURLToPath(import.meta.url), ...listSources(path.join(sources, 'lib'))];
    for (const entry of listSources(sources)) {
      const target = path.join(out, `${path.basename(entry, '.ts')}.wasm`);
      if (!options.force && isFresh(target, [entry, ...shared])) continue;
      fs.mkdirSync(out, { recursive: true });
      await compile(sources, entry, target);
      options.log?.(`built ${path.relative(ROOT, target)}`);
      built.push(target);
    }
  }
  return built;
}

function listSources(folder) {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(folder, entry.name))
    .sort();
}

function isFresh(target, inputs) {
  const built = fs.statSync(target, { throwIfNoEntry: false });
  return built !== undefined && inputs.every((input) => fs.statSync(input).mtimeMs < built.mtimeMs);
}

async function compile(baseDir, entry, target) {
  // Loaded only when something is stale: the compiler (and Binaryen under it) takes a while to load.
  const { default: asc } = await import('assemblyscript/asc');
  const temporary = `${target}.${process.pid}.tmp`;
  const stderr = [];
  const own = /^\/\/ asc: (.*)$/m.exec(fs.readFileSync(entry, 'utf8').split('\n', 1)[0] ?? '')?.[1].split(/\s+/) ?? [];
  const { error } = await asc.main(
    [path.relative(baseDir, entry), '--baseDir', baseDir, '--outFile', temporary, '--runtime', 'stub', '--optimizeLevel', '3', '--shrinkLevel', '0', ...own],
    { stderr: { write: (chunk) => stderr.push(String(chunk)) } },
  );
  if (error) {
    fs.rmSync(temporary, { force: true });
    throw new Error(`AssemblyScript could not compile ${path.relative(ROOT, entry)}: ${error.message}\n${stderr.join('')}`);
  }
  fs.renameSync(temporary, target);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const built = await buildWasmModules({ force: process.argv.includes('--force'), log: (line) => console.log(line) });
  if (built.length === 0) console.log('every WebAssembly module is up to date');
}
