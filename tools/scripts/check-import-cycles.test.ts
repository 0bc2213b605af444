import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, 'check-import-cycles.mjs');
const dirs: string[] = [];

/** A src/ folder of the given files, checked by the script. */
function check(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return {
    status: result.status,
    output: (result.stdout + result.stderr).replaceAll(`${path.relative(path.resolve(import.meta.dirname, '../..'), dir)}/`, ''),
  };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('check-import-cycles', () => {
  it('passes a graph without circles', () => {
    const result = check({
      'a.ts': "import { b } from './b.js';\nexport const a = b;",
      'b.ts': "import type { C } from './steps/c.js';\nexport const b: C = 1;",
      'steps/c.ts': 'export type C = number;',
    });
    expect(result).toMatchObject({ status: 0, output: expect.stringContaining('no import circle in 3 files, and none between the folders of a package') });
  });

  it.for([
    ['a value import', "import { b } from './b.js';", "import { a } from './a.js';"],
    ['a type-only import', "import type { B } from './b.js';", "import type { A } from './a.js';"],
    ['a re-export', "export { b } from './b.js';", "export * from './a.js';"],
    ['an import() type', "export type B = import('./b.js').B;", "import { a } from './a.js';"],
    ['a dynamic import', "export const load = () => import('./b.js');", "import { a } from './a.js';"],
  ] as const)('finds a circle through %s, and names the files in it', ([, a, b]) => {
    const result = check({ 'a.ts': a, 'b.ts': b, 'c.ts': "import { a } from './a.js';" });
    expect(result.status).toBe(1);
    expect(result.output).toContain('1 import circle');
    expect(result.output).toMatch(/- (a\.ts -> b\.ts -> a\.ts|b\.ts -> a\.ts -> b\.ts)/);
  });

  it('finds a longer circle through a folder index and reports every file of it', () => {
    const result = check({
      'a.ts': "import { x } from './steps/index.js';",
      'steps/index.ts': "export { x } from './x.js';",
      'steps/x.ts': "import { y } from '../y.js';\nexport const x = y;",
      'y.ts': "import '../src-other.js';\nimport { a } from './a.js';",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('4 files import each other round');
  });

  it('finds folders that import each other without a file circle: an arrow back up', () => {
    const result = check({
      'a.ts': "import { x } from './steps/x.js';\nexport const a = x;",
      'steps/x.ts': "import type { B } from '../b.js';\nexport const x: B = 1;",
      'b.ts': 'export type B = number;',
      'steps/y.ts': "import { a } from '../a.js';\nexport const y = a;",
      'steps/y.test.ts': "import { a } from '../a.js';",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('1 circle of folders (arrows back up inside a package)');
    expect(result.output).toContain('steps/y.ts -> a.ts');
    expect(result.output).toContain('a.ts -> steps/x.ts');
    expect(result.output).not.toContain('steps/x.ts -> b.ts'); // b.ts is not in the circle
  });

  it('lets tests reach anywhere', () => {
    const result = check({
      'a.ts': "import { x } from './steps/x.js';\nexport const a = x;",
      'steps/x.ts': 'export const x = 1;',
      'steps/x.test.ts': "import { a } from '../a.js';",
    });
    expect(result.status).toBe(0);
  });
});
