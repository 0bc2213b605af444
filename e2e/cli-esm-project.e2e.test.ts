// An ES module project (`"type": "module"`) served and called with `-p`, as a user's would be: `import.meta`,
// top-level `await` and an ES-only dependency crashed `serve -p` at start with "internal error (please report)",
// the project having been compiled to CommonJS (found by a review).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_OPTIONS } from './support/project-options.js';
import { toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A project inside e2e/ (so `@toolwright/*` resolve from the repository's node_modules), with the files given. */
function project(label: string, files: Record<string, string>): string {
  const dir = path.join(__dirname, `.tmp-${label}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  temporary.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const TSCONFIG = JSON.stringify({
  compilerOptions: { ...PROJECT_OPTIONS, types: ['node'] },
  include: ['src'],
});

/** A dependency that is an ES module only: `require` cannot load it on Node 20. */
const ESM_ONLY = {
  'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', version: '1.0.0', type: 'module', exports: { '.': { import: './index.js' } } }),
  'node_modules/esm-only/index.js': 'export const shout = (text) => `${text.toUpperCase()}!`;\n',
  'node_modules/esm-only/index.d.ts': 'export declare const shout: (text: string) => string;\n',
};

const TOOLS = `import { shout } from 'esm-only';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.basename(fileURLToPath(import.meta.url));
const greeting = await Promise.resolve('hello');

/**
 * Greets someone loudly.
 * @tool
 * @param name Who to greet.
 */
export async function greet(name: string): Promise<string> {
  return \`\${shout(\`\${greeting} \${name}\`)} (from \${here})\`;
}
`;

describe('an ES module project', () => {
  it('is compiled and loaded as ES modules: import.meta, top-level await and an ES-only dependency work', () => {
    const dir = project('esm', {
      'package.json': JSON.stringify({ name: 'esm-tools', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG,
      'src/tools.ts': TOOLS,
      ...ESM_ONLY,
    });
    const result = toolwright(['call', 'greet', '--args', '{"name":"ada"}', '-p', 'tsconfig.json', '--audit', 'none'], dir);
    expect(result.stderr).not.toContain('internal error');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', output: 'HELLO ADA! (from tools.js)' });
    expect(
      fs.readFileSync(
        path.join(dir, 'node_modules/.cache/toolwright', fs.readdirSync(path.join(dir, 'node_modules/.cache/toolwright'))[0]!, 'package.json'),
        'utf8',
      ),
    ).toContain('"module"');
  });

  it("answers a project whose code fails as it loads with the project's error, naming the file, never an internal error", () => {
    const failing = `throw new Error('the database is not configured');\n${TOOLS.replace("import { shout } from 'esm-only';\n", 'const shout = (text: string) => text;\n')}`;
    const dir = project('esm-failing', {
      'package.json': JSON.stringify({ name: 'esm-failing', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG,
      'src/tools.ts': failing,
    });
    const result = toolwright(['call', 'greet', '--args', '{"name":"ada"}', '-p', 'tsconfig.json', '--audit', 'none'], dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Loading the tools of ${path.join('src', 'tools.ts')} failed: Error: the database is not configured`);
    expect(result.stderr).not.toContain('internal error');
  });

  it('a CommonJS project that requires an ES-only dependency is told to run as ES modules', () => {
    const dir = project('cjs-esm-dep', {
      'package.json': JSON.stringify({ name: 'cjs-tools', private: true }),
      'tsconfig.json': TSCONFIG,
      'src/tools.ts': TOOLS.replace(/const here[\s\S]*?'hello'\);\n/, "const here = 'tools.js';\nconst greeting = 'hello';\n").replace(
        "import { fileURLToPath } from 'node:url';\n",
        '',
      ),
      ...ESM_ONLY,
    });
    const result = toolwright(['call', 'greet', '--args', '{"name":"ada"}', '-p', 'tsconfig.json', '--audit', 'none'], dir);
    expect(result.stderr).not.toContain('internal error');
    if (result.status === 0) {
      // Node 22.12 and later require an ES module without top-level await: it simply works.
      expect(JSON.parse(result.stdout)).toMatchObject({ output: 'HELLO ADA! (from tools.js)' });
    } else {
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/Loading the tools of src.tools\.ts failed: .*set "type": "module" in your package\.json/s);
    }
  });
});
