// `toolwright emit --module` writes a module beside the tools (every declaration as a literal): it declares
// no tool of its own, and neither front end reads it as if it did.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeProgram, analyzeTypeScript7, GENERATED_MODULE_HEADER } from '../src/index.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';
import { typeScript7, typeScript7Installs, writeTsconfig } from './typescript-7.js';

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-generated-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const tool = (name: string) =>
  `import { tool } from '@toolwright/tool';\n/** ${name}. */\nexport const ${name} = tool(async function ${name}(text: string) {});\n`;
fs.writeFileSync(path.join(dir, 'tools.ts'), tool('kept'));
// Anything after the header is the generator's: here, what would be a tool anywhere else.
fs.writeFileSync(path.join(dir, 'tools.generated.ts'), `${GENERATED_MODULE_HEADER}\n${tool('passedBy')}`);
fs.writeFileSync(path.join(dir, 'tools.other.ts'), `// Not generated.\n${tool('alsoKept')}`);
const files = ['tools.ts', 'tools.generated.ts', 'tools.other.ts'].map((name) => path.join(dir, name));

describe('the module emit --module writes', () => {
  it('is passed by on TypeScript 6', () => {
    const analysis = analyzeProgram(ts.createProgram(files, FIXTURE_OPTIONS), { rootDir: dir });
    expect(analysis.tools.map((entry) => entry.declaration?.name).sort()).toEqual(['also_kept', 'kept']);
  });

  const installs = typeScript7Installs().filter((install) => fs.existsSync(path.join(install.dir, 'package.json')));
  it.skipIf(installs.length === 0).for(installs)('is passed by on TypeScript $line, its syntax tree never fetched', async ({ dir: packageDir }) => {
    const typescript = await typeScript7(packageDir);
    const config = writeTsconfig(path.join(dir, 'tsconfig.json'), files);
    const open = typescript.openProject(config);
    try {
      const analysis = analyzeTypeScript7(typescript, open, { rootDir: dir });
      expect(analysis.tools.map((entry) => entry.declaration?.name).sort()).toEqual(['also_kept', 'kept']);
      expect([...analysis.files.keys()].map((file) => path.basename(file)).sort()).toEqual(['tools.other.ts', 'tools.ts']);
    } finally {
      open.close();
    }
  });
});
