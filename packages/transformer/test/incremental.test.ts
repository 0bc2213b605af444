import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createIncrementalAnalyzer } from '../src/index.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';

/** A compiler host that keeps SourceFile objects of unchanged files, as watch hosts do. */
function cachingHost(options: ts.CompilerOptions) {
  const host = ts.createCompilerHost(options);
  const cache = new Map<string, ts.SourceFile>();
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = ts.sys.readFile(fileName);
    const cached = cache.get(fileName);
    if (cached && cached.text === text) return cached;
    const created = original(fileName, languageVersion, onError, shouldCreate);
    if (created) cache.set(fileName, created);
    return created;
  };
  return host;
}

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-incremental-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe(createIncrementalAnalyzer, () => {
  it('re-analyses only changed files and the files that import them', () => {
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write('types.ts', 'export interface Options { depth: number }\n');
    write(
      'a.ts',
      "import { tool } from '@toolwright/tool';\nimport type { Options } from './types.js';\n/** A. */\nexport const a = tool(async function a(options: Options) {});\n",
    );
    write('b.ts', "import { tool } from '@toolwright/tool';\n/** B. */\nexport const b = tool(async function b(name: string) {});\n");
    const roots = ['types.ts', 'a.ts', 'b.ts'].map((f) => path.join(dir, f));
    const options = { ...FIXTURE_OPTIONS };
    const host = cachingHost(options);
    const analyze = createIncrementalAnalyzer({ rootDir: dir });

    let program = ts.createProgram(roots, options, host);
    const first = analyze(program);
    expect(first.tools.map((t) => t.declaration?.name).sort()).toEqual(['a', 'b']);
    const firstA = first.tools.find((t) => t.declaration?.name === 'a')!;

    write('b.ts', "import { tool } from '@toolwright/tool';\n/** B. */\nexport const b = tool(async function b(name: string, loud?: boolean) {});\n");
    program = ts.createProgram(roots, options, host, program);
    const second = analyze(program);
    expect(second.analysedFiles).toBe(1);
    expect(second.tools.find((t) => t.declaration?.name === 'a')).toBe(firstA);
    expect(second.tools.find((t) => t.declaration?.name === 'b')!.declaration!.parameterOrder).toEqual(['name', 'loud']);

    write('types.ts', 'export interface Options { depth: number; follow?: boolean }\n');
    program = ts.createProgram(roots, options, host, program);
    const third = analyze(program);
    expect(third.analysedFiles).toBe(2); // types.ts itself and a.ts, which imports it
    expect(Object.keys(third.tools.find((t) => t.declaration?.name === 'a')!.declaration!.parameters.properties.options!.properties!)).toEqual([
      'depth',
      'follow',
    ]);
  });
});
