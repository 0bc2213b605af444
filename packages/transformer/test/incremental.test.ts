import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTypeScript7, createIncrementalAnalyzer, type ProgramAnalysis } from '../src/index.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';
import { typeScript7, typeScript7Installs, writeTsconfig } from './typescript-7.js';

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

describe('analyzeTypeScript7 after the project is refreshed (emit --watch)', () => {
  const installs = typeScript7Installs().filter((install) => fs.existsSync(path.join(install.dir, 'package.json')));
  it.skipIf(installs.length === 0).for(installs)(
    'on TypeScript $line, sees the edit and re-analyses only changed files and the files that import them',
    async ({ line, dir: packageDir }) => {
      const folder = fs.mkdtempSync(path.join(dir, `ts${line}-`));
      const write = (name: string, text: string) => fs.writeFileSync(path.join(folder, name), text);
      write('types.ts', 'export interface Options { depth: number }\n');
      write(
        'a.ts',
        "import { tool } from '@toolwright/tool';\nimport type { Options } from './types.js';\n/** A. */\nexport const a = tool(async function a(options: Options) {});\n",
      );
      write('b.ts', "import { tool } from '@toolwright/tool';\n/** B. */\nexport const b = tool(async function b(name: string) {});\n");
      const files = ['types.ts', 'a.ts', 'b.ts'].map((name) => path.join(folder, name));
      const typescript = await typeScript7(packageDir);
      const open = typescript.openProject(writeTsconfig(path.join(folder, 'tsconfig.json'), files));
      try {
        const first = analyzeTypeScript7(typescript, open, { rootDir: folder });
        expect(first.tools.map((t) => t.declaration?.name).sort()).toEqual(['a', 'b']);
        const firstA = first.tools.find((t) => t.declaration?.name === 'a')!;
        const next = (previous: ProgramAnalysis, changed: string) => {
          open.refresh({ changed: [path.join(folder, changed)] });
          return analyzeTypeScript7(typescript, open, { rootDir: folder, previous });
        };
        write(
          'b.ts',
          "import { tool } from '@toolwright/tool';\n/** B, edited. */\nexport const b = tool(async function b(name: string, loud?: boolean) {});\n",
        );
        const second = next(first, 'b.ts');
        expect(second.analysedFiles).toBe(1);
        expect(second.tools.find((t) => t.declaration?.name === 'a')).toBe(firstA);
        const b = second.tools.find((t) => t.declaration?.name === 'b')!.declaration!;
        expect([b.description, b.parameterOrder]).toEqual(['B, edited.', ['name', 'loud']]);
        write('types.ts', 'export interface Options { depth: number; follow?: boolean }\n');
        const third = next(second, 'types.ts');
        expect(third.analysedFiles).toBe(2); // types.ts itself and a.ts, which imports it
        expect(Object.keys(third.tools.find((t) => t.declaration?.name === 'a')!.declaration!.parameters.properties.options!.properties!)).toEqual([
          'depth',
          'follow',
        ]);
      } finally {
        open.close();
      }
    },
  );
});
