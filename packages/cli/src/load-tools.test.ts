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
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, types: [], rootDir: 'src' }, include: ['src'] }),
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
});
