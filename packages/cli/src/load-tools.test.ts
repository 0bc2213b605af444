import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProjectTools } from './load-tools.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-load-tools-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TOOL = (name: string) => `/**\n * Adds.\n * @tool\n */\nexport async function ${name}(a: number, b: number): Promise<number> {\n  return a + b;\n}\n`;

describe(loadProjectTools, () => {
  // `serve -p` compiled the project at every start (1.1-1.4 s to the first tools/list): its last build is served
  // while nothing it read has changed, and it says why when it compiles.
  it('compiles only when something its last build read has changed, saying what', async () => {
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "cached", "private": true }');
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, types: [], skipLibCheck: true, rootDir: 'src' },
        include: ['src'],
      }),
    );
    fs.mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'deep', 'add.ts'), TOOL('add'));
    const load = async () => {
      const why: string[] = [];
      const { registry } = await loadProjectTools(path.join(dir, 'tsconfig.json'), undefined, undefined, (reason) => why.push(reason));
      return {
        why,
        names: registry
          .list()
          .map((declaration) => declaration.name)
          .sort(),
      };
    };
    expect(await load()).toEqual({ why: ['no build of it yet'], names: ['add'] });
    expect(await load()).toEqual({ why: [], names: ['add'] });
    // A source changed (its size or time).
    fs.writeFileSync(path.join(dir, 'src', 'deep', 'add.ts'), `${TOOL('add')}\n`);
    expect((await load()).why).toEqual([expect.stringMatching(/add\.ts changed since its last build$/)]);
    // A file added to a folder the tsconfig includes.
    fs.writeFileSync(path.join(dir, 'src', 'deep', 'sum.ts'), TOOL('sum'));
    expect(await load()).toEqual({ why: [expect.stringMatching(/^files were added to or removed from .*deep$/)], names: ['add', 'sum'] });
    // The tsconfig, or the package.json that says which module system the project runs as.
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "cached", "private": true, "version": "1.0.0" }');
    expect((await load()).why).toEqual([expect.stringMatching(/package\.json changed since its last build$/)]);
    expect((await load()).why).toEqual([]);
  });

  it('loads the tools a file declares by hand and exports, but never a test file or an unexported one', async () => {
    const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-load-declared-')));
    try {
      fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "declared", "private": true }');
      fs.writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, types: [], skipLibCheck: true, rootDir: 'src' },
          include: ['src'],
        }),
      );
      fs.mkdirSync(path.join(project, 'src'));
      // The store's own key (Symbol.for): what @toolwright/schema's attachToolDeclaration does, without resolving it.
      const declared = (name: string, exported: boolean) =>
        `function attachToolDeclaration<F>(fn: F, declaration: object): F {\n  Object.defineProperty(fn, Symbol.for('toolwright.declaration'), { value: declaration });\n  return fn;\n}\n` +
        `${exported ? 'export ' : ''}const ${name} = attachToolDeclaration(async () => 'ok', { name: '${name}', description: 'd', parameterOrder: [], ` +
        `parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, metadata: { tier: 'read-only', timeoutMs: 1000, ` +
        `sideEffects: [], capabilities: [], determinism: 'pure', resources: { timeoutMs: 1000 }, parallel: true, tags: [] } });\n` +
        `${exported ? '' : `export const used = ${name};\n`}`;
      fs.writeFileSync(path.join(project, 'src', 'contact.ts'), declared('contact', true));
      fs.writeFileSync(path.join(project, 'src', 'contact.test.ts'), `${declared('from_a_test', true)}throw new Error('a test file was loaded');\n`);
      fs.writeFileSync(path.join(project, 'src', 'hidden.ts'), `${declared('hidden', false)}throw new Error('an unexported declaration was loaded');\n`);
      const { registry } = await loadProjectTools(path.join(project, 'tsconfig.json'));
      expect(registry.list().map((declaration) => declaration.name)).toEqual(['contact']);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});
