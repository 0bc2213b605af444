// The packages as a user gets them from the registry: packed with `npm pack`, installed into a clean
// project outside this repository (so nothing resolves through the monorepo's node_modules), then a
// @tool is built with `toolwright build`, read, run through the executor, and served over MCP stdio to
// the official SDK client installed beside it. One install serves every test (about 10 s from npm's cache).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPacked } from '../tools/release/check-packed.mjs';
import { packPackages } from '../tools/release/pack-packages.mjs';
import { BROKEN, GREET, npm, RUN_MCP, runExecutorScript } from './support/packed-project.js';
import { REPO, run, type RunResult } from './support/run.js';
import { TsServerClient } from './support/tsserver-client.js';
import { PROJECT_OPTIONS } from './support/project-options.js';

// Exact pins: the versions the monorepo itself is tested with (root package.json).
const ALONGSIDE = ['typescript@6.0.3', '@modelcontextprotocol/sdk@1.32.2', 'ai@7.0.173', '@openai/agents@0.20.0'];

const TSCONFIG = {
  compilerOptions: {
    ...PROJECT_OPTIONS,
    types: [],
    outDir: 'dist',
    declaration: true,
    plugins: [
      { transform: '@toolwright/transformer' },
      { transform: '@toolwright/transformer/program', transformProgram: true },
      { name: '@toolwright/language-service' },
    ],
  },
  include: ['src'],
};

/** The AI SDK and OpenAI Agents adapters, each running the tool without a model. */
const RUN_ADAPTERS = `import { createRequire } from 'node:module';
import { RunContext } from '@openai/agents';
import { toAISdkTools } from '@toolwright/ai-sdk';
import { toAgentTools } from '@toolwright/openai-agents';
const require = createRequire(import.meta.url);
const { ToolRegistry } = require('@toolwright/registry');
const { ToolExecutor } = require('@toolwright/executor');
const registry = new ToolRegistry();
registry.registerModule(require('./dist/greet.js'));
const executor = new ToolExecutor({ registry });
const aiSdk = await toAISdkTools(executor).greet.execute({ name: 'Ada' }, { toolCallId: 'a1', messages: [] });
const [agentTool] = toAgentTools(executor);
const agents = await agentTool.invoke(new RunContext({}), JSON.stringify({ name: 'Bo', times: 1 }), { toolCall: { type: 'function_call', callId: 'b1', name: 'greet', arguments: '' } });
console.log(JSON.stringify({ aiSdk, agentTool: agentTool.name, agents }));
`;

let work: string;
let project: string;
let packed: ReturnType<typeof packPackages>;
let install: RunResult;

beforeAll(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-packages-')));
  packed = packPackages(path.join(work, 'tarballs'));
  project = path.join(work, 'project');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...packed.map((p) => p.tarball), ...ALONGSIDE];
  install = npm(args, project);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, 'src', 'greet.ts'), GREET);
  fs.writeFileSync(path.join(project, 'run-executor.cjs'), runExecutorScript());
  fs.writeFileSync(path.join(project, 'run-mcp.mjs'), RUN_MCP);
  fs.writeFileSync(path.join(project, 'run-adapters.mjs'), RUN_ADAPTERS);
  fs.mkdirSync(path.join(project, 'broken', 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(project, 'broken', 'tsconfig.json'),
    JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, noEmit: true } }, null, 2),
  );
  fs.writeFileSync(path.join(project, 'broken', 'src', 'broken.ts'), BROKEN);
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const node = (args: readonly string[]) => run(process.execPath, args, project);
const toolwright = (args: readonly string[]) => node([path.join(project, 'node_modules', '.bin', 'toolwright'), ...args]);
const json = (result: RunResult) => {
  expect(result.status, result.output).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
};

describe('the packed packages, installed outside the repository', () => {
  it('pack with their entry points, README, engines and peers, and no tests or test support', () => {
    expect(packed.map((p) => p.name)).toEqual(expect.arrayContaining(['@toolwright/cli', '@toolwright/executor', '@toolwright/mcp', '@toolwright/tool']));
    expect(checkPacked(packed)).toEqual([]);
    const executor = packed.find((p) => p.name === '@toolwright/executor')!;
    expect(executor.files.filter((f) => f.includes('test-support'))).toEqual([]);
  });

  it('install from the tarballs with TypeScript as the peer (engine warnings stay warnings)', () => {
    expect(install.status, install.output).toBe(0);
    expect(install.stderr).not.toMatch(/npm (error|ERR!)/);
    const resolved = node(['-p', "require.resolve('@toolwright/cli/package.json') + '\\n' + require('typescript').version"]);
    const [where, tsVersion] = resolved.stdout.trim().split('\n');
    expect(where!.startsWith(path.join(project, 'node_modules'))).toBe(true);
    expect(where!.startsWith(REPO)).toBe(false);
    expect(tsVersion).toBe('6.0.3');
    expect(fs.readdirSync(path.join(project, 'node_modules', '@toolwright', 'executor', 'dist'))).not.toContain('test-support');
  });

  it('build a @tool with toolwright build, and fail a bad one with its diagnostic', () => {
    const built = toolwright(['build', '-p', 'tsconfig.json', '--no-pretty']);
    expect(built.status, built.output).toBe(0);
    expect(fs.existsSync(path.join(project, 'dist', 'greet.js'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'dist', 'greet.d.ts'))).toBe(true);

    const failed = toolwright(['build', '-p', 'broken/tsconfig.json', '--no-pretty']);
    expect(failed.status).not.toBe(0);
    expect(failed.output).toMatch(/TW1002/);
  });

  it('read the declaration at run time and run the tool through the executor', () => {
    const { declaration, ok, bad } = json(node(['run-executor.cjs']));
    expect(declaration).toMatchObject({
      name: 'greet',
      description: 'Greets someone, as many times as asked.',
      parameters: { type: 'object', required: ['name'], properties: { times: { type: 'integer', minimum: 1, maximum: 5, default: 1 } } },
    });
    expect(ok).toMatchObject({ status: 'completed', output: { text: 'Hello, Ada! Hello, Ada!' } });
    expect(bad).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', issues: [{ path: '$.times' }] } });
  });

  it('serve it over MCP stdio to the SDK client, beside the core tools', () => {
    const { tools, result } = json(node(['run-mcp.mjs']));
    const names = (tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['greet', 'file_read', 'shell_exec']));
    expect(tools.find((t: { name: string }) => t.name === 'greet')).toMatchObject({
      inputSchema: { required: ['name'] },
      annotations: { readOnlyHint: true },
    });
    expect(result).toMatchObject({ structuredContent: { text: 'Hello, Ada! Hello, Ada!' } });
  });

  it('run it through the AI SDK and OpenAI Agents adapters', () => {
    const { aiSdk, agentTool, agents } = json(node(['run-adapters.mjs']));
    expect(aiSdk).toEqual({ text: 'Hello, Ada!' });
    expect(agentTool).toBe('greet');
    expect(JSON.parse(agents)).toEqual({ text: 'Hello, Bo!' });
  });

  it('report the same error in the editor: tsserver loads the language service by package name', async () => {
    const client = new TsServerClient(project, path.join(project, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
    try {
      const file = path.join(project, 'broken', 'src', 'broken.ts');
      client.notify('open', { file });
      const diagnostics = await client.request<{ code: number; text: string; start: { line: number } }[]>('semanticDiagnosticsSync', { file });
      expect(diagnostics.map((d) => [d.code, d.start.line])).toContainEqual([991002, 4]);
    } finally {
      client.close();
    }
  });
});
