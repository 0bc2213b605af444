// A TypeScript 7 project adopting Toolwright as a user does: `npm i -D typescript` (7), the packed
// packages installed beside it from their tarballs (no peer conflict), `toolwright emit --module`
// writing the module that attaches the declarations, `tsc` (the native compiler, tsgo) compiling
// the project with it, and the tools run through the executor from the compiled JavaScript.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanNpmEnv, packPackages } from '../tools/release/pack-packages.mjs';
import { run, type RunResult } from './support/run.js';

// Exact pins, as tools/typescript-7 tests them.
const ALONGSIDE = ['typescript@7.0.2', '@modelcontextprotocol/sdk@1.32.2'];

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    types: [],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

const GREET = `import { tool, type Integer } from '@toolwright/tool';

/**
 * Greets someone, as many times as asked.
 * @param name Who to greet.
 * @param times How many greetings.
 */
export const greet = tool(async function greet(name: string, /** @minimum 1 @maximum 5 */ times: Integer = 1): Promise<{ text: string }> {
  return { text: Array.from({ length: times }, () => \`Hello, \${name}!\`).join(' ') };
}, { tier: 'read-only' });
`;

const BROKEN = `import { tool } from '@toolwright/tool';

/** Schedules a callback. */
export const schedule = tool(async function schedule(options: { callback: () => void }): Promise<void> {});
`;

/** The generated module first (it attaches the declarations), then the tools, through the executor. */
const RUN_EXECUTOR = `require('./dist/tools.generated.js');
const { getToolDeclaration } = require('@toolwright/tool');
const { ToolRegistry } = require('@toolwright/registry');
const { ToolExecutor } = require('@toolwright/executor');
const tools = require('./dist/greet.js');
const registry = new ToolRegistry();
registry.registerModule(tools);
const executor = new ToolExecutor({ registry });
Promise.all([
  executor.executeToolCall({ id: 'ok', name: 'greet', arguments: '{"name":"Ada","times":2}' }),
  executor.executeToolCall({ id: 'bad', name: 'greet', arguments: '{"name":"Ada","times":9}' }),
]).then(([ok, bad]) => console.log(JSON.stringify({ declaration: getToolDeclaration(tools.greet), ok, bad })));
`;

/** The official MCP client against \`toolwright serve --mcp stdio -p tsconfig.json\`. */
const RUN_MCP = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const client = new Client({ name: 'consumer', version: '1.0.0' });
await client.connect(new StdioClientTransport({
  command: process.execPath,
  args: ['node_modules/.bin/toolwright', 'serve', '--mcp', 'stdio', '-p', 'tsconfig.json', '--audit', 'none'],
  stderr: 'inherit',
}));
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada', times: 2 } });
await client.close();
console.log(JSON.stringify({ tools, result }));
`;

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
  // Every package but the language-service plugin: TypeScript 7's language server loads no plugins (its peer stays 6).
  const tarballs = packed.filter((p) => p.name !== '@toolwright/language-service').map((p) => p.tarball);
  install = npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...tarballs, ...ALONGSIDE], project);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, 'src', 'greet.ts'), GREET);
  fs.writeFileSync(path.join(project, 'run-executor.cjs'), RUN_EXECUTOR);
  fs.writeFileSync(path.join(project, 'run-mcp.mjs'), RUN_MCP);
  fs.mkdirSync(path.join(project, 'broken', 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'broken', 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, 'broken', 'src', 'broken.ts'), BROKEN);
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

function npm(args: readonly string[], cwd: string): RunResult {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: cleanNpmEnv({ NO_COLOR: '1' }) });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

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

  it('report a bad tool with its diagnostic and write nothing', () => {
    const result = toolwright(['emit', '-p', 'broken/tsconfig.json']);
    expect(result.status).toBe(1);
    expect(result.output).toContain("error TW1002: Property 'options.callback' has type '() => void', which has no JSON Schema form.");
    expect(fs.existsSync(path.join(project, 'broken', 'tools.json'))).toBe(false);
  });
});
