import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preloadTypeScript } from './typescript-code-cache.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-code-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dist = path.resolve(__dirname, '../dist/typescript-code-cache.js');

/** A fresh process: preloads, then checks that `require('typescript')` is the preloaded, working compiler. */
function start(env: Record<string, string> = {}): { route: string; version: string } {
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      `
    const { preloadTypeScript } = require(${JSON.stringify(dist)});
    const route = preloadTypeScript({ cacheDir: ${JSON.stringify(dir)} });
    const ts = require('typescript');
    const out = ts.transpileModule('const a: number = 1; export default a;', { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
    if (!out.includes('exports.default = a')) throw new Error('the preloaded compiler does not work: ' + out);
    process.stdout.write(JSON.stringify({ route, version: ts.version }));
  `,
    ],
    { encoding: 'utf8', cwd: path.resolve(__dirname, '..'), env: { ...process.env, ...env } },
  );
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { route: string; version: string };
}

describe(preloadTypeScript, () => {
  // Node ≥ 22.1 has its own compile cache, which preloadTypeScript turns on instead.
  const builtIn = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  it.skipIf(builtIn)('compiles once, keeps the code cache, and starts from it next time', () => {
    expect(fs.existsSync(dist), 'run the build first (npm test does)').toBe(true);
    expect(start().route).toBe('compiled');
    const [cache] = fs.readdirSync(dir);
    expect(cache).toMatch(/^typescript-6\.\d+\.\d+-v8-.*\.cache$/);
    expect(start()).toMatchObject({ route: 'from-cache', version: expect.stringMatching(/^6\./) });
  });

  it.skipIf(builtIn)('rejects damaged cache data, compiles again and rewrites it', () => {
    const [cache] = fs.readdirSync(dir);
    const file = path.join(dir, cache!);
    const data = fs.readFileSync(file);
    data.fill(7, 64, 4096);
    fs.writeFileSync(file, data);
    expect(start().route).toBe('compiled');
    expect(start().route).toBe('from-cache');
  });

  it('can be turned off', () => {
    expect(start({ TOOLWRIGHT_NO_CODE_CACHE: '1' }).route).toBe('disabled');
  });
});
