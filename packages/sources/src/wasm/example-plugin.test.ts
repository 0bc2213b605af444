// The plug-in of examples/wasm-tools, built from examples/wasm-tools/plugin/slugify.ts by the same build.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { runWasm } from './run-wasm.js';
import { wasmRequest } from './test-support/wasm-request.js';

const slugifyModule = fileURLToPath(new URL('../../../../examples/wasm-tools/build/slugify.wasm', import.meta.url));
beforeAll(() => buildWasmModules(), 120_000);

describe('the slugify plug-in', () => {
  it.for([
    [{ text: 'Hello, World!' }, 'hello-world'],
    [{ text: '  Crème Brûlée — Straße & Œuvre  ' }, 'creme-brulee-strasse-oeuvre'],
    [{ text: 'x "quoted" \\ back\nslash' }, 'x-quoted-back-slash'],
    [{ text: 'a very long title indeed', maxLength: 13 }, 'a-very-long'],
    [{ text: 'abcdefghij klm', maxLength: 5 }, 'abcde'],
    [{ text: '日本語 text' }, 'text'],
    [{ text: '' }, ''],
  ] as const)('slugifies %j as %s', async ([input, slug]) => {
    await expect(runWasm(wasmRequest(slugifyModule, { input }))).resolves.toEqual({ slug });
  });

  it('keeps to the default 80 characters', async () => {
    const { slug } = (await runWasm(wasmRequest(slugifyModule, { input: { text: 'word '.repeat(100) } }))) as { slug: string };
    expect(slug).toBe(Array(16).fill('word').join('-'));
  });
});
