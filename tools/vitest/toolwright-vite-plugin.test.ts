import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyOfInputs } from './toolwright-vite-plugin.mjs';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-vite-key-'));
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

function write(relative: string, text: string): string {
  const file = path.join(repo, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Gives a file a new modification time (a second later than it has), as an edit would. */
function touch(file: string): void {
  const { mtimeMs } = fs.statSync(file);
  fs.utimesSync(file, new Date(mtimeMs + 1000), new Date(mtimeMs + 1000));
}

describe("the compiled-source cache's key", () => {
  write('package-lock.json', '{}');
  write('tsconfig.base.json', '{}');
  const source = write('packages/a/src/deep/x.ts', 'export const x = 1;');
  const otherPackage = write('packages/b/src/y.ts', 'export type Y = string;');
  const manifest = write('packages/b/package.json', '{}');
  const transformer = write('packages/transformer/dist/index.js', '');

  it('changes with any source of any package, a manifest, the transformer as built, or the lockfile', () => {
    for (const file of [source, otherPackage, manifest, transformer, path.join(repo, 'package-lock.json')]) {
      const before = keyOfInputs(repo);
      touch(file);
      expect(keyOfInputs(repo), path.relative(repo, file)).not.toBe(before);
    }
  });

  it('changes when a source is added, and not for a test file, which is never compiled by it', () => {
    const before = keyOfInputs(repo);
    write('packages/a/src/deep/x.test.ts', 'it("x", () => {});');
    expect(keyOfInputs(repo)).toBe(before);
    write('packages/a/src/z.ts', 'export {};');
    expect(keyOfInputs(repo)).not.toBe(before);
  });
});
