import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { emit } from './commands/emit.js';
import { createCompilerHost } from './compiler-host.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-host-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

fs.mkdirSync(path.join(dir, 'src'));
fs.writeFileSync(path.join(dir, 'src', 'shapes.d.ts'), `/** A box. */\nexport interface Box {\n  /** Width in pixels. @minimum 1 */\n  width: number;\n}\n`);
fs.writeFileSync(
  path.join(dir, 'src', 'tools.ts'),
  `import type { Box } from './shapes.js';\n/**\n * Measures a box.\n * @tool\n */\nexport async function measure(box: Box): Promise<number> {\n  return box.width;\n}\n`,
);
fs.writeFileSync(
  path.join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, types: [], noEmit: true }, include: ['src'] }),
);

describe(createCompilerHost, () => {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, types: [] };
  const program = ts.createProgram({ rootNames: [path.join(dir, 'src', 'tools.ts')], options, host: createCompilerHost(options) });
  program.getTypeChecker(); // binds: JSDoc lookups need parent pointers

  it("parses JSDoc in the project's source files", () => {
    const tools = program.getSourceFile(path.join(dir, 'src', 'tools.ts'))!;
    const fn = tools.statements.find(ts.isFunctionDeclaration)!;
    expect(ts.getJSDocTags(fn).map((tag) => tag.tagName.text)).toEqual(['tool']);
  });

  it('parses declaration files (the libs above all) as tsc does, without their JSDoc', () => {
    const shapes = program.getSourceFile(path.join(dir, 'src', 'shapes.d.ts'))!;
    const box = shapes.statements.find(ts.isInterfaceDeclaration)!;
    expect(ts.getJSDocCommentsAndTags(box)).toEqual([]);
    const lib = program.getSourceFiles().find((file) => file.fileName.endsWith('lib.es5.d.ts'))!;
    expect(lib.statements.some((statement) => ts.getJSDocCommentsAndTags(statement).length > 0)).toBe(false);
  });

  it('still reads the JSDoc of a declaration file a tool signature reaches', () => {
    const lines: string[] = [];
    const result = emit({ project: path.join(dir, 'tsconfig.json'), out: path.join(dir, 'tools.json') }, (line) => lines.push(line));
    expect(result.errorCount).toBe(0);
    const [declaration] = JSON.parse(fs.readFileSync(path.join(dir, 'tools.json'), 'utf8')) as { parameters: { properties: Record<string, unknown> } }[];
    expect(declaration!.parameters.properties.box).toMatchObject({ properties: { width: { type: 'number', description: 'Width in pixels.', minimum: 1 } } });
  });
});
