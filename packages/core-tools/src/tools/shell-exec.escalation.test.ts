// shell_exec with `escalate` runs outside the kernel sandbox only when its tool context says a person
// confirmed this very call (`escalationConfirmed`, set by an executor whose escalation gate asked):
// not when the tool is called directly, nor through an executor without the core tools' risk hooks,
// whatever its approver or allow rules say.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor, loadPolicy, type ApprovalAnswer, type ExecutorOptions } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { runWithToolContext, type ToolCallContext } from '@toolwright/tool';
import { CoreToolError } from '../core-tool-error.js';
import { coreToolsRiskLevels, registerCoreTools } from '../core-tools.js';
import { completed, failed } from '../test-support/call-results.js';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { toolContext } from '../test-support/tool-context.js';
import { testSandboxMode } from '../test-support/sandbox-mode.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { ShellTool, type ShellResult } from './shell-exec.js';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const env: CoreToolsEnvironment = { ...ws.env, shell: { backend: 'host', sandbox: testSandboxMode(), policy: { allow: ['touch'] } } };

let made = 0;
/** A command that leaves a new file behind, so whether it ran is plain to see. */
function marker(): { command: string; ran: () => boolean } {
  const name = `made-${++made}`;
  return { command: `touch ${name}`, ran: () => fs.existsSync(path.join(ws.root, name)) };
}

function context(extra: Partial<ToolCallContext> = {}): ToolCallContext {
  return toolContext({ toolName: 'shell_exec', ...extra });
}

const UNCONFIRMED = /needs a person to confirm this exact call, asked by an executor with the escalation gate .*the command was not run/;

describe('shell_exec with escalate, called directly', () => {
  it.for<[string, ToolCallContext | undefined, boolean]>([
    ['outside any call', undefined, false],
    ['in a context without the confirmation', context(), false],
    ['in the background, without the confirmation', context(), true],
  ])('refuses %s, and nothing runs', async ([, given, background]) => {
    const shell = new ShellTool(env);
    const { command, ran } = marker();
    const call = () => shell.shellExec(command, undefined, background, true);
    const refused = await (given ? runWithToolContext(given, call) : call()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CoreToolError);
    expect(refused).toMatchObject({ code: 'escalation_unconfirmed', message: expect.stringMatching(UNCONFIRMED) });
    expect(ran()).toBe(false);
    shell.dispose();
  });

  it('runs outside the sandbox when the context carries the confirmation', async () => {
    const shell = new ShellTool(env);
    const { command, ran } = marker();
    const result = (await runWithToolContext(context({ escalationConfirmed: true }), () => shell.shellExec(command, undefined, false, true))) as ShellResult;
    expect(result).toMatchObject({ exitCode: 0, ranIn: 'escalated' });
    expect(ran()).toBe(true);
    shell.dispose();
  });
});

describe('shell_exec with escalate, through an executor', () => {
  function executor(options: Partial<ExecutorOptions>) {
    const registry = new ToolRegistry();
    registerCoreTools(registry, env);
    const exec = new ToolExecutor({ registry, audit: new MemoryAuditSink(), ...options });
    return (command: string) => exec.executeToolCall({ id: `c${made}`, name: 'shell_exec', arguments: { command, escalate: true } });
  }
  const approveAll = async (): Promise<ApprovalAnswer> => ({ kind: 'once' });
  const confirmAll = async (): Promise<ApprovalAnswer> => ({ kind: 'once', confirmEscalation: true, confirmProtected: true });

  it.for<[string, Partial<ExecutorOptions>]>([
    ['an approver that approves everything', { approve: approveAll }],
    ['an approver that confirms everything it is asked', { approve: confirmAll }],
    ['an allow rule', { policy: loadPolicy({ rules: [{ allow: 'shell_exec' }] }) }],
  ])('without the risk hooks (no escalation gate) is refused by the tool under %s, and nothing runs', async ([, options]) => {
    const { command, ran } = marker();
    const result = await executor(options)(command);
    expect(failed(result).error).toMatchObject({ code: 'tool_failed', errorCode: 'escalation_unconfirmed', message: expect.stringMatching(UNCONFIRMED) });
    expect(result.content).toMatch(UNCONFIRMED);
    expect(ran()).toBe(false);
  });

  it('with the risk hooks, runs outside the sandbox once a person confirms it', async () => {
    const { command, ran } = marker();
    const result = await executor({ riskLevel: coreToolsRiskLevels(env), approve: async () => ({ kind: 'once', confirmEscalation: true }) })(command);
    expect(result.status).toBe('completed');
    expect(completed(result).output).toMatchObject({ exitCode: 0, ranIn: 'escalated' });
    expect(ran()).toBe(true);
  });

  it('with the risk hooks, a blanket approval is refused by the executor before the tool is reached', async () => {
    const { command, ran } = marker();
    const result = await executor({ riskLevel: coreToolsRiskLevels(env), approve: approveAll })(command);
    expect(failed(result).error).toMatchObject({ code: 'escalation_unapproved', approval: 'blanket' });
    expect(ran()).toBe(false);
  });
});
