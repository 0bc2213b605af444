import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, 'check-exports.mjs');
const dirs: string[] = [];

/** A repository of the given files (two packages, `@toolwright/a` and `@toolwright/b`), checked by the script. */
function check(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-exports-'));
  dirs.push(dir);
  const all = {
    'packages/a/package.json': '{ "name": "@toolwright/a" }',
    'packages/b/package.json': '{ "name": "@toolwright/b" }',
    'packages/b/src/index.ts': 'export {};\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const result = spawnSync(process.execPath, [script, '--root', dir], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const A = {
  'packages/a/src/index.ts': "export { used, documented, hidden, unused } from './things.js';\nexport type { Shape } from './things.js';\n",
  'packages/a/src/things.ts': [
    'export const used = 1;',
    'export function documented() {}',
    '/** @internal */',
    'export class hidden {}',
    'export const unused = 2;',
    'export interface Shape { x: number }',
  ].join('\n'),
  'packages/b/src/uses.ts': "import { used } from '@toolwright/a';\nexport const twice = used * 2;\n",
  'packages/a/README.md': '# a\n\n- `documented()` does a thing.\n',
};

describe('check-exports', () => {
  it('refuses a value nothing outside its package uses, no doc names and nothing marks @internal', () => {
    const { status, output } = check(A);
    expect(status).toBe(1);
    expect(output).toContain("@toolwright/a exports 'unused', which nothing outside the package uses and no README or doc names");
    expect(output).toContain('1 of 4 exports');
    for (const name of ['used', 'documented', 'hidden', 'Shape']) expect(output).not.toContain(`exports '${name}'`);
  });

  it('passes once it is used by another package, a dynamic import included', () => {
    const { status, output } = check({
      ...A,
      'packages/b/src/late.ts': "export async function late() { const { unused } = await import('@toolwright/a'); return unused; }\n",
    });
    expect(output).toContain('check-exports: 4 exports of 2 packages');
    expect(status).toBe(0);
  });

  it('does not count a use inside the package itself, its tests included', () => {
    const { status } = check({ ...A, 'packages/a/src/things.test.ts': "import { unused } from '@toolwright/a';\nunused;\n" });
    expect(status).toBe(1);
  });
});
