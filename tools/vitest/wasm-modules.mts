// Builds the WebAssembly test and example modules (AssemblyScript, git-ignored outputs) once, before any test file
// runs: test files that each built what was stale at the same moment replaced one another's modules mid-test (a new
// file version is a new module for the runner's cache).
import { buildWasmModules } from '../wasm/build-modules.mjs';

export default async function setup(): Promise<void> {
  await buildWasmModules();
}
