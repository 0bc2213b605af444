// A TypeScript 7 project adopting Toolwright as a user does: `npm i -D typescript` (7), the packed
// packages installed beside it from their tarballs (no peer conflict), `toolwright emit --module`
// writing the module that attaches the declarations, `tsc` (the native compiler, tsgo) compiling
// the project with it, and the tools run through the executor from the compiled JavaScript.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages } from '../tools/release/pack-packages.mjs';
import { BROKEN, GREET, npm, RUN_MCP, runExecutorScript } from './support/packed-project.js';
import { run, type RunResult } from './support/run.js';
import { PROJECT_OPTIONS } from './support/project-options.js';

// Exact pins, as tools/typescript-7 tests them.
const ALONGSIDE = ['typescript@7.0.2', '@modelcontextprotocol/sdk@1.32.2'];

const TSCONFIG = {
  compilerOptions: { ...PROJECT_OPTIONS, types: [], outDir: 'dist' },
  include: ['src'],
};

let work: string;
let project: string;
let install: RunResult;

beforeAll(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-ts7-packages-')));
  const packed = packPackages(path.join(work, 'tarballs'));
  project = path.join(work, 'project');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  // CommonJS output, so the compiled tools load with require().
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer-ts7', version: '1.0.0', private: true }, null, 2));
  // Every package that meets TypeScript: not the language-service plugin (TypeScript 7's language server loads no
  // plugins; its peer stays 6), nor the AI SDK and OpenAI Agents adapters, which peer no TypeScript and bring those
  // SDKs (80 MB, a fifth of the install's time; packages-install.e2e.test.ts installs and runs them).
  const leftOut = new Set(['@toolwright/language-service', '@toolwright/ai-sdk', '@toolwright/openai-agents']);
  const tarballs = packed.filter((p) => !leftOut.has(p.name)).map((p) => p.tarball);
  install = npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...tarballs, ...ALONGSIDE], project);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, 'src', 'greet.ts'), GREET);
  fs.writeFileSync(path.join(project, 'run-executor.cjs'), runExecutorScript('./dist/tools.generated.js'));
  fs.writeFileSync(path.join(project, 'run-mcp.mjs'), RUN_MCP);
  fs.mkdirSync(path.join(project, 'broken', 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'broken', 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, 'broken', 'src', 'broken.ts'), BROKEN);
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const node = (args: readonly string[], cwd = project) => run(process.execPath, args, cwd);
const toolwright = (args: readonly string[], cwd = project) => node([path.join(project, 'node_modules', '.bin', 'toolwright'), ...args], cwd);

describe('the packed packages in a TypeScript 7 project', () => {
  it('install beside typescript@7 with no peer conflict', () => {
    expect(install.status, install.output).toBe(0);
    expect(install.output).not.toMatch(/ERESOLVE|peer dep/i);
    expect(node(['-p', "require('typescript/package.json').version"]).stdout.trim()).toBe('7.0.2');
  });

  it('emit the declarations through the native compiler, compile with tsgo, and run the tool through the executor', () => {
    const emitted = toolwright(['emit', '--module', 'src/tools.generated.ts']);
    expect(emitted.status, emitted.output).toBe(0);
    expect(emitted.output).toMatch(/^1 tool from 1 file in \d+ ms\n$/);
    const compiled = node([path.join(project, 'node_modules', '.bin', 'tsc'), '-p', 'tsconfig.json']);
    expect(compiled.status, compiled.output).toBe(0);
    const result = node(['run-executor.cjs']);
    expect(result.status, result.output).toBe(0);
    const { declaration, ok, bad } = JSON.parse(result.stdout);
    expect(declaration.parameters.properties.times).toEqual({ type: 'integer', minimum: 1, maximum: 5, default: 1, description: 'How many greetings.' });
    expect(ok).toMatchObject({ status: 'completed', output: { text: 'Hello, Ada! Hello, Ada!' } });
    expect(bad).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', issues: [{ path: '$.times' }] } });
  });

  it('serve the built tools over MCP stdio beside the core tools, and call one with --project', () => {
    const served = node(['run-mcp.mjs']);
    expect(served.status, served.output).toBe(0);
    const { tools, result } = JSON.parse(served.stdout);
    expect((tools as { name: string }[]).map((t) => t.name)).toEqual(expect.arrayContaining(['greet', 'file_read', 'shell_exec']));
    const greet = (tools as { name: string; inputSchema: { properties: Record<string, unknown> } }[]).find((t) => t.name === 'greet')!;
    expect(greet.inputSchema.properties.times).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(JSON.stringify(result)).toContain('Hello, Ada! Hello, Ada!');
    const called = toolwright(['call', 'greet', '--args', '{"name":"Bo"}', '-p', 'tsconfig.json', '--audit', 'none']);
    expect(called.status, called.output).toBe(0);
    expect(called.stdout).toContain('Hello, Bo!');
  });

  it('say what to run when the built tools are older than their sources', () => {
    const source = path.join(project, 'src', 'greet.ts');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(source, later, later);
    const result = toolwright(['call', 'greet', '--args', '{"name":"Bo"}', '-p', 'tsconfig.json', '--audit', 'none']);
    expect(result.status).toBe(2);
    expect(result.output).toContain('dist/greet.js is older than src/greet.ts');
    expect(result.output).toContain('Run tsc -p tsconfig.json first.');
  });

  it('init sets up the TypeScript 7 route, whose npm run build emits the module and compiles with tsgo', () => {
    const fresh = path.join(project, 'fresh');
    fs.mkdirSync(fresh);
    const initialised = toolwright(['init'], fresh);
    expect(initialised.status, initialised.output).toBe(0);
    expect(initialised.output).toContain('created    tsconfig.json');
    expect(JSON.parse(fs.readFileSync(path.join(fresh, 'package.json'), 'utf8')).scripts.build).toBe(
      'toolwright emit --module src/tools.generated.ts && tsc -p tsconfig.json',
    );
    const built = npm(['run', 'build'], fresh);
    expect(built.status, built.output).toBe(0);
    expect(fs.existsSync(path.join(fresh, 'dist', 'tools.js'))).toBe(true);
    expect(fs.existsSync(path.join(fresh, 'dist', 'tools.generated.js'))).toBe(true);
    const listed = toolwright(['list', '-p', 'tsconfig.json', '--no-core'], fresh);
    expect(listed.status, listed.output).toBe(0);
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);
  });

  it('run a tool whose implementation is a program, its relative path resolved against its declaring file (not dist/)', () => {
    const sourced = path.join(project, 'sourced');
    fs.mkdirSync(path.join(sourced, 'src'), { recursive: true });
    fs.writeFileSync(path.join(sourced, 'package.json'), JSON.stringify({ name: 'sourced', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(sourced, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    fs.writeFileSync(
      path.join(sourced, 'src', 'count.ts'),
      [
        "import { source } from '@toolwright/sources';",
        '/** Counts the words of a text. @param text The text. @tier read-only */',
        "export const countWords = source.subprocess<(text: string) => Promise<{ words: number }>>(['python3', './count.py']);",
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(sourced, 'src', 'count.py'), 'import json, sys\nprint(json.dumps({"words": len(json.load(sys.stdin)["text"].split())}))\n');
    const compiled = node([path.join(project, 'node_modules', '.bin', 'tsc'), '-p', 'tsconfig.json'], sourced);
    expect(compiled.status, compiled.output).toBe(0);
    const called = toolwright(['call', 'count_words', '--args', '{"text":"one two three"}', '-p', 'tsconfig.json', '--audit', 'none'], sourced);
    expect(called.status, called.output).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ status: 'completed', output: { words: 3 } });
  });

  it('report a bad tool with its diagnostic and write nothing', () => {
    const result = toolwright(['emit', '-p', 'broken/tsconfig.json']);
    expect(result.status).toBe(1);
    expect(result.output).toContain("error TW1002: Property 'options.callback' has type '() => void', which has no JSON Schema form.");
    expect(fs.existsSync(path.join(project, 'broken', 'tools.json'))).toBe(false);
  });
});
