import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitWatch } from '@toolwright/cli';
import { copyProject } from './support/temp-project.js';
import { BIN, REPO, run, toolwright } from './support/run.js';

const BASIC = path.join(__dirname, 'basic-project');
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function project(name: string, label: string): string {
  const dir = copyProject(name, label);
  temporary.push(dir);
  return dir;
}

describe('toolwright emit', () => {
  it('writes every declaration as a JSON array sorted by name and ends with a summary line', () => {
    const dir = project('basic-project', 'emit');
    const result = toolwright(['emit', '--project', 'tsconfig.json'], dir);
    expect(result.status).toBe(0);
    expect(result.output).toMatch(/^3 tools from 3 files in \d+ ms\n$/);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'tools.json'), 'utf8'));
    expect(manifest.map((d: { name: string }) => d.name)).toEqual(['add_numbers', 'greet', 'read_lines']);
    expect(manifest[2].parameters.properties.limit).toEqual({ type: 'integer', description: 'Maximum number of lines to return.', default: 100 });
  });

  it('--out chooses the manifest path', () => {
    const dir = project('basic-project', 'out');
    expect(toolwright(['emit', '-p', '.', '--out', 'build/declarations.json'], dir).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'build', 'declarations.json'))).toBe(true);
  });

  it('--check passes when the manifest is current and fails with the drifted tools when not', () => {
    const dir = project('basic-project', 'check');
    expect(toolwright(['emit'], dir).status).toBe(0);
    const clean = toolwright(['emit', '--check'], dir);
    expect(clean.status).toBe(0);
    expect(clean.output).toContain('(up to date)');

    const source = path.join(dir, 'src', 'math.ts');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('b: number', 'b: number, c?: number'));
    const drift = toolwright(['emit', '--check'], dir);
    expect(drift.status).toBe(1);
    expect(drift.output).toContain('tools.json is out of date with the tool signatures');
    expect(drift.output).toContain('~ add_numbers (changed)');
  });

  it('prints diagnostics with code frames, exits 1 and writes nothing for a broken project', () => {
    const dir = project('broken-project', 'broken');
    const result = toolwright(['emit'], dir);
    expect(result.status).toBe(1);
    expect(result.output).toContain("src/broken.ts:6:13 - error TW1002: Property 'options.callback' has type '() => void', which has no JSON Schema form.");
    expect(result.output).toContain('   6 |   callback: () => void;'.trimStart());
    expect(result.output).toContain('nothing was written');
    expect(fs.existsSync(path.join(dir, 'tools.json'))).toBe(false);
  });

  it('--keep-going reports the refused tools, still writes those that compiled and exits 1', () => {
    const dir = project('broken-project', 'keep-going');
    fs.writeFileSync(
      path.join(dir, 'src', 'good.ts'),
      [
        "import { tool } from '@toolwright/tool';",
        '/** Says hello. */',
        'export const hello = tool(async function hello(name: string) { return `hello ${name}`; });',
      ].join('\n'),
    );
    const strict = toolwright(['emit'], dir);
    expect(strict.status).toBe(1);
    expect(strict.output).toContain('nothing was written');
    expect(fs.existsSync(path.join(dir, 'tools.json'))).toBe(false);

    const result = toolwright(['emit', '--keep-going', '--module', 'src/tools.gen.ts', '--out', 'tools.json'], dir);
    expect(result.status).toBe(1);
    expect(result.output).toContain('error TW1002');
    expect(result.output).toContain('--keep-going: writing the 1 tool that compiled (refused: schedule, runGeneric).');
    expect(result.output).toMatch(/1 tool from 2 files in \d+ ms, 2 refused\n$/);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'tools.json'), 'utf8'));
    expect(manifest.map((d: { name: string }) => d.name)).toEqual(['hello']);
    const generated = fs.readFileSync(path.join(dir, 'src', 'tools.gen.ts'), 'utf8');
    expect(generated).toContain('export const toolNames = ["hello"] as const;');
  });

  it('--module writes a module that attaches the declarations in a build with no transformer', () => {
    const dir = project('basic-project', 'module');
    expect(toolwright(['emit', '--module', 'src/tools.gen.ts'], dir).status).toBe(0);
    // Plain tsc ignores the transformer plugins: the functions carry nothing until tools.gen.js runs.
    const build = run(process.execPath, [path.join(BIN, '..', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
    expect(build.output).toBe('');
    const script = `
      const { getToolDeclaration } = require('@toolwright/tool');
      const files = require('./dist/files.js');
      const before = getToolDeclaration(files.readLines);
      const gen = require('./dist/tools.gen.js');
      const kit = require('./dist/kit.js');
      process.stdout.write(JSON.stringify({ before: before ?? null, names: gen.toolNames,
        readLines: getToolDeclaration(files.readLines)?.name, greet: getToolDeclaration(kit.GreetingKit.prototype.greet)?.name }));`;
    const result = run(process.execPath, ['-e', script], dir);
    expect(JSON.parse(result.output)).toEqual({ before: null, names: ['add_numbers', 'greet', 'read_lines'], readLines: 'read_lines', greet: 'greet' });
  });

  it("--module also types each tool's argument object for ToolArgs<typeof fn> and ToolArgs<'name'>", () => {
    const dir = project('basic-project', 'toolargs');
    expect(toolwright(['emit', '--module', 'src/tools.gen.ts'], dir).status).toBe(0);
    const tsc = path.join(BIN, '..', 'typescript', 'bin', 'tsc');
    fs.writeFileSync(
      path.join(dir, 'src', 'use-args.ts'),
      [
        "import type { ToolArgs } from '@toolwright/tool';",
        "import { readLines } from './files.js';",
        "import './tools.gen.js';",
        "export const byName: ToolArgs<'read_lines'> = { path: 'a.txt', limit: 5 };",
        "export const byType: ToolArgs<typeof readLines> = { path: 'a.txt' };",
        "export const method: ToolArgs<'greet'> = { name: 'Ada', shout: true };",
      ].join('\n'),
    );
    expect(run(process.execPath, [tsc, '-p', '.', '--noEmit'], dir).output).toBe('');
    fs.writeFileSync(
      path.join(dir, 'src', 'bad-args.ts'),
      [
        "import type { ToolArgs } from '@toolwright/tool';",
        "import { readLines } from './files.js';",
        "import './tools.gen.js';",
        'export const missing: ToolArgs<typeof readLines> = { limit: 5 };',
        "export const wrong: ToolArgs<'read_lines'> = { path: 7 };",
      ].join('\n'),
    );
    const bad = run(process.execPath, [tsc, '-p', '.', '--noEmit'], dir);
    expect(bad.output).toContain("bad-args.ts(4,14): error TS2741: Property 'path' is missing");
    expect(bad.output).toContain("bad-args.ts(5,48): error TS2322: Type 'number' is not assignable to type 'string'");
  });

  it("--module types a flattened tool's argument object as its options type", () => {
    const dir = project('basic-project', 'toolargs-flat');
    fs.writeFileSync(
      path.join(dir, 'src', 'scrape.ts'),
      [
        "import { tool } from '@toolwright/tool';",
        'export interface ScrapeOptions { url: string; onlyMainContent?: boolean }',
        '/** Scrapes one page. */',
        'export const scrapePage = tool(async function scrapePage(options?: Partial<ScrapeOptions>) { return options?.url; }, { flatten: true });',
      ].join('\n'),
    );
    expect(toolwright(['emit', '--module', 'src/tools.gen.ts'], dir).status).toBe(0);
    const tsc = path.join(BIN, '..', 'typescript', 'bin', 'tsc');
    fs.writeFileSync(
      path.join(dir, 'src', 'use-args.ts'),
      [
        "import type { ToolArgs } from '@toolwright/tool';",
        "import { scrapePage } from './scrape.js';",
        "import './tools.gen.js';",
        "export const byName: ToolArgs<'scrape_page'> = { url: 'https://example.com', onlyMainContent: true };",
        'export const byType: ToolArgs<typeof scrapePage> = {};',
        "export const wrong: ToolArgs<'scrape_page'> = { url: 7 };",
      ].join('\n'),
    );
    const checked = run(process.execPath, [tsc, '-p', '.', '--noEmit'], dir);
    expect(checked.output.trim().split('\n')).toEqual([
      expect.stringContaining("use-args.ts(6,49): error TS2322: Type 'number' is not assignable to type 'string'"),
    ]);
  });

  it('answers usage errors with exit code 2 and a clear message', () => {
    expect(toolwright(['frobnicate'], BASIC)).toMatchObject({ status: 2, output: expect.stringContaining("Unknown command 'frobnicate'") });
    expect(toolwright(['emit', '--project', 'missing.json'], BASIC)).toMatchObject({ status: 2, output: expect.stringContaining('Cannot find a tsconfig') });
    expect(toolwright(['emit', '--bogus'], BASIC)).toMatchObject({ status: 2, output: expect.stringContaining("Unknown option '--bogus'") });
  });
});

describe('toolwright build', () => {
  it('compiles like tsc -p and the emitted JavaScript carries every declaration', () => {
    const dir = project('basic-project', 'build');
    const result = toolwright(['build', '-p', 'tsconfig.json', '--no-pretty'], dir);
    expect(result).toMatchObject({ status: 0, output: '' });
    const read = run(
      process.execPath,
      [
        path.join(__dirname, 'support', 'read-declarations.cjs'),
        dir,
        'dist/files.js#readLines',
        'dist/kit.js#GreetingKit.prototype.greet',
        'dist/math.js#addNumbers',
      ],
      dir,
    );
    const declarations = JSON.parse(read.output) as Record<string, { name: string } | null>;
    expect(Object.values(declarations).map((d) => d?.name)).toEqual(['read_lines', 'greet', 'add_numbers']);
  });

  it('fails on a bad tool with the diagnostics tsc would print', () => {
    const dir = project('broken-project', 'build-broken');
    const result = toolwright(['build', '--no-pretty'], dir);
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      "src/broken.ts(6,13): error TS991002: Property 'options.callback' has type '() => void', which has no JSON Schema form. (TW1002)",
    );
    expect(result.output).toContain('Found 2 errors.');
  });
});

describe('the strictJson setting in tsconfig', () => {
  const addWebhookTool = (dir: string, strict: boolean) => {
    fs.writeFileSync(
      path.join(dir, 'src', 'webhook.ts'),
      [
        "import { tool } from '@toolwright/tool';",
        '/** Sends a webhook. */',
        'export const sendWebhook = tool(async function sendWebhook(url: string, body: unknown): Promise<void> {});',
        '',
      ].join('\n'),
    );
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'));
    if (strict)
      for (const entry of config.compilerOptions.plugins) if (String(entry.transform ?? '').startsWith('@toolwright/transformer')) entry.strictJson = true;
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  };

  it('lets a parameter take any JSON value with a warning by default', () => {
    const dir = project('basic-project', 'strict-json-off');
    addWebhookTool(dir, false);
    const emitted = toolwright(['emit'], dir);
    expect(emitted.status, emitted.output).toBe(0);
    expect(emitted.output).toContain('TW1104');
    expect(toolwright(['build', '--no-pretty'], dir).status).toBe(0);
  });

  it('makes it an error for build and emit when an entry says "strictJson": true', () => {
    const dir = project('basic-project', 'strict-json-on');
    addWebhookTool(dir, true);
    for (const command of [['emit'], ['build', '--no-pretty']]) {
      const result = toolwright(command, dir);
      expect(result.status, command.join(' ')).toBe(1);
      expect(result.output).toMatch(/TW1104/);
    }
  });
});

describe('toolwright emit --watch', () => {
  it('re-emits the manifest after a change to one file', async () => {
    const dir = project('basic-project', 'watch');
    const manifest = path.join(dir, 'tools.json');
    const results: unknown[] = [];
    let resolveNext: (() => void) | undefined;
    const handle = emitWatch(
      { project: path.join(dir, 'tsconfig.json'), cwd: dir },
      (result) => {
        results.push(result);
        resolveNext?.();
      },
      () => {},
    );
    const next = () =>
      new Promise<void>((resolve) => {
        resolveNext = resolve;
      });
    try {
      if (results.length === 0) await next();
      expect(JSON.parse(fs.readFileSync(manifest, 'utf8'))).toHaveLength(3);
      const waiting = next();
      const source = path.join(dir, 'src', 'math.ts');
      fs.writeFileSync(
        source,
        `${fs.readFileSync(source, 'utf8')}\n/**\n * Multiplies two numbers.\n * @tool\n */\nexport async function multiply(a: number, b: number): Promise<number> {\n  return a * b;\n}\n`,
      );
      await waiting;
      const names = JSON.parse(fs.readFileSync(manifest, 'utf8')).map((d: { name: string }) => d.name);
      expect(names).toEqual(['add_numbers', 'greet', 'multiply', 'read_lines']);
    } finally {
      handle.close();
    }
  });
});

describe('the compile cache', () => {
  const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  // A review: Node's default folder is in TMPDIR, which may lie in a workspace, where a sandboxed command could plant
  // compiled code the next start would run.
  it.runIf(hasCache)("keeps the CLI's compiled modules in the folder Toolwright's processes share (Node ≥ 22.1), never in TMPDIR", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-compile-cache-'));
    temporary.push(tmp);
    const uid = process.getuid?.() ?? 0;
    const shared = path.join(fs.existsSync(`/run/user/${uid}`) ? `/run/user/${uid}` : '/tmp', `toolwright-${uid}`, 'compile-cache');
    const { NODE_COMPILE_CACHE: _cache, NODE_DISABLE_COMPILE_CACHE: _disabled, ...env } = process.env;
    const result = spawnSync(process.execPath, [path.join(REPO, 'packages', 'cli', 'bin', 'toolwright.js'), '--help'], {
      encoding: 'utf8',
      env: { ...env, TMPDIR: tmp },
    });
    expect(result.status).toBe(0);
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(fs.readdirSync(shared, { recursive: true }).length).toBeGreaterThan(0);
    expect(fs.statSync(path.dirname(shared)).mode & 0o077).toBe(0);
  });
});
