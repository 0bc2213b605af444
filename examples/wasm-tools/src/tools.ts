import { source } from '@toolwright/sources';
import type { Integer } from '@toolwright/tool';

// Runs the WebAssembly module built from `plugin/slugify.ts` (AssemblyScript) by `node tools/wasm/build-modules.mjs`,
// off the main thread, with a memory cap and a compute budget (fuel).
/**
 * Turns a title into a URL slug: lower case ASCII letters and digits joined by hyphens.
 * @param text The title to turn into a slug.
 * @param maxLength The longest slug returned (cut at a hyphen where it can be).
 * @tier read-only
 * @timeout 5s
 */
export const slugify = source.wasm<(text: string, maxLength?: Integer) => Promise<{ slug: string }>>('../build/slugify.wasm', {
  maxMemory: '16MB',
  fuel: 10_000_000,
});
