// What both packed-packages tests (TypeScript 6 and 7) write into their project and how they run npm.
import { spawnSync } from 'node:child_process';
import { cleanNpmEnv } from '../../tools/release/pack-packages.mjs';
import type { RunResult } from './run.js';

/** The example tool: a description, @param texts, an Integer with constraints, a default. */
export const GREET = `import { tool, type Integer } from '@toolwright/tool';

/**
 * Greets someone, as many times as asked.
 * @param name Who to greet.
 * @param times How many greetings.
 */
export const greet = tool(async function greet(name: string, /** @minimum 1 @maximum 5 */ times: Integer = 1): Promise<{ text: string }> {
  return { text: Array.from({ length: times }, () => \`Hello, \${name}!\`).join(' ') };
}, { tier: 'read-only' });
`;

/** A parameter with no JSON form: a build error (TW1002) and an editor diagnostic (991002) at `callback`. */
export const BROKEN = `import { tool } from '@toolwright/tool';

/** Schedules a callback. */
export const schedule = tool(async function schedule(options: { callback: () => void }): Promise<void> {});
`;

/**
 * Reads the declaration at run time and runs calls through the executor, as a user's program does;
 * `preload` first (TypeScript 7's generated module, which attaches the declarations).
 */
export function runExecutorScript(preload?: string): string {
  return `${preload ? `require(${JSON.stringify(preload)});\n` : ''}const { getToolDeclaration } = require('@toolwright/tool');
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
}

/** The official MCP client against \`toolwright serve --mcp stdio -p tsconfig.json\`, both from the project's node_modules. */
export const RUN_MCP = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
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

/** Runs npm as a person would: without the enclosing `npm run`'s prefix and workspace variables. */
export function npm(args: readonly string[], cwd: string): RunResult {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: cleanNpmEnv({ NO_COLOR: '1' }) });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}
