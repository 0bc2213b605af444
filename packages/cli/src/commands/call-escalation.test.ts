// The real shell_exec asking to run outside the sandbox, in the environment `call` and `serve` open
// (`openCallEnvironment`): a person's confirmation at the terminal or in an MCP form reaches the tool
// (its context's `escalationConfirmed`), so the command runs outside the sandbox; blanket approval does not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpToolServer } from '@toolwright/mcp';
import { openCallEnvironment, type CallEnvironment } from '../call-environment.js';
import { callTool } from './call.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cli-escalation-')));
const opened: CallEnvironment[] = [];
afterAll(async () => {
  for (const environment of opened) await environment.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function environment(): Promise<CallEnvironment> {
  const env = await openCallEnvironment({ workspace: dir, audit: 'none' }, { err: () => {} });
  opened.push(env);
  return env;
}

let made = 0;
/** An escalated `true`, checked by the output: the shell says where it ran. */
function escalated(): string {
  return JSON.stringify({ command: `true ${++made}`, escalate: true });
}

function terminal(answer: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  stdin.end(`${answer}\n`);
  return { stdin, stderr: new PassThrough() };
}

describe('toolwright call: shell_exec with escalate', () => {
  it.for([true, false])('runs outside the sandbox once a person types "escalate" at the terminal (--yes: %s)', async (yes) => {
    const { registry, executorOptions, workspaceRoot } = await environment();
    const report = await callTool(registry, {
      tool: 'shell_exec',
      args: escalated(),
      yes,
      workspace: workspaceRoot,
      executor: executorOptions,
      ...terminal('escalate'),
    });
    expect(report).toMatchObject({ status: 'completed', output: { exitCode: 0, ranIn: 'escalated' } });
    expect(report.content).toContain('ran outside the sandbox, as approved');
  });

  it('--yes without a terminal is refused before the tool runs', async () => {
    const { registry, executorOptions, workspaceRoot } = await environment();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    const report = await callTool(registry, { tool: 'shell_exec', args: escalated(), yes: true, workspace: workspaceRoot, executor: executorOptions, stdin });
    expect(report.error).toMatchObject({ code: 'escalation_unapproved', details: { approval: 'blanket' } });
  });
});

describe('toolwright serve: shell_exec with escalate', () => {
  async function connected(answer: (schema: unknown) => Record<string, unknown>) {
    const { registry, executorOptions } = await environment();
    const tools = new McpToolServer({ registry, executor: executorOptions });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await tools.createServer().connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: 'accept',
      content: answer('requestedSchema' in request.params ? request.params.requestedSchema : undefined) as Record<string, boolean | string>,
    }));
    await client.connect(clientSide);
    const call = async () => (await client.callTool({ name: 'shell_exec', arguments: JSON.parse(escalated()) as Record<string, unknown> })) as CallToolResult;
    return { call, close: () => client.close() };
  }
  const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

  it("runs outside the sandbox once the client's user confirms it in the form", async () => {
    const { call, close } = await connected(() => ({ run_outside_sandbox: true }));
    const result = await call();
    await close();
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/^exit code 0\b.*; ran outside the sandbox, as approved/);
  });

  it('refuses it when the form is answered like any other approval', async () => {
    const { call, close } = await connected(() => ({ decision: 'once' }));
    const result = await call();
    await close();
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('outside the sandbox');
  });
});
