// Writes a deterministic project of N varied tools (10 per file, all three authoring forms) for the
// build-time benchmark: node tools/bench/generate-project.mjs <dir> <N>
import fs from 'node:fs';
import path from 'node:path';

const SHAPES = [
  (i) => ({ params: `path: string, limit: Integer = ${i % 50 + 1}`, args: `path: string; limit?: number` }),
  (i) => ({ params: `mode: 'fast' | 'safe' | 'thorough', tags: string[]`, args: `mode: 'fast' | 'safe' | 'thorough'; tags: string[]` }),
  (i) => ({ params: `options: Options${i % 5}`, args: `options: Options${i % 5}` }),
  (i) => ({ params: `since: Date, until?: Date`, args: `since: string; until?: string` }),
  (i) => ({ params: `counts: Record<string, number>, threshold = 0.5`, args: `counts: Record<string, number>; threshold?: number` }),
  (i) => ({ params: `tree: Node${i % 3}`, args: `tree: Node${i % 3}` }),
  (i) => ({ params: `range: [start: number, end?: number], id: string | null`, args: `range: [number, number?]; id: string | null` }),
];

export function generateProject(dir, count, { plugins = true } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  const types = [];
  for (let k = 0; k < 5; k++) {
    types.push(`/** Options variant ${k}. */\nexport interface Options${k} {\n  /** Depth to search. @minimum 0 @maximum 10 */\n  depth?: number;\n  follow: boolean;\n  include: string[];\n  nested: { name: string; weight: number; kind: 'a' | 'b' | 'c${k}' };\n}\n`);
  }
  for (let k = 0; k < 3; k++) types.push(`/** Tree variant ${k}. */\nexport interface Node${k} { name: string; size: number; children: Node${k}[] }\n`);
  fs.writeFileSync(path.join(dir, 'src', 'types.ts'), types.join('\n'));
  const files = Math.ceil(count / 10);
  const argTypes = [];
  for (let f = 0; f < files; f++) {
    const lines = ["import { tool, type Integer } from '@toolwright/tool';", "import type { Options0, Options1, Options2, Options3, Options4, Node0, Node1, Node2 } from './types.js';", ''];
    const classMethods = [];
    for (let t = 0; t < 10 && f * 10 + t < count; t++) {
      const i = f * 10 + t;
      const shape = SHAPES[i % SHAPES.length](i);
      argTypes.push(`export interface Tool${i}Args { ${shape.args} }`);
      const form = i % 10;
      if (form < 6) {
        lines.push(`/**\n * Tool number ${i}: does step ${i} of the job.\n * @tier read-only\n */\nexport const tool${i} = tool(async function tool${i}(${shape.params}): Promise<{ ok: boolean; count: number }> {\n  return { ok: true, count: ${i} };\n});\n`);
      } else if (form < 8) {
        classMethods.push(`  /** Method tool ${i}. */\n  @tool({ tier: 'side-effecting', timeout: '5s' })\n  async method${i}(${shape.params}): Promise<string[]> {\n    return [this.prefix, '${i}'];\n  }\n`);
      } else {
        lines.push(`/**\n * JSDoc tool ${i}.\n * @tool\n * @determinism pure\n */\nexport async function jsdocTool${i}(${shape.params}): Promise<number> {\n  return ${i};\n}\n`);
      }
    }
    if (classMethods.length > 0) lines.push(`/** Toolkit ${f}. */\nexport class Kit${f} {\n  constructor(private readonly prefix: string) {}\n\n${classMethods.join('\n')}}\n`);
    lines.push(`/** Ordinary code next to the tools. */\nexport function helper${f}(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);\n}\n`);
    fs.writeFileSync(path.join(dir, 'src', `tools${f}.ts`), lines.join('\n'));
  }
  fs.writeFileSync(path.join(dir, 'src', 'args.ts'), `import type { Options0, Options1, Options2, Options3, Options4, Node0, Node1, Node2 } from './types.js';\n${argTypes.join('\n')}\n`);
  const base = {
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: true, types: [], rootDir: 'src', outDir: 'dist' },
    include: ['src'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.plain.json'), JSON.stringify(base, null, 2));
  const withPlugins = structuredClone(base);
  withPlugins.compilerOptions.plugins = [{ transform: '@toolwright/transformer' }, { transform: '@toolwright/transformer/program', transformProgram: true }];
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(plugins ? withPlugins : base, null, 2));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `bench-${count}`, private: true }, null, 2));
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  generateProject(path.resolve(process.argv[2]), Number(process.argv[3] ?? 100));
}
