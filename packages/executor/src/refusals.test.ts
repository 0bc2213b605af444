import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { loadPolicy, type PolicyDocument } from './policy/policy.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';

function setup(document: PolicyDocument | undefined, options: Partial<ExecutorOptions> = {}) {
  const registry = new ToolRegistry();
  registry.register(
    defineTool(async (command: string) => `ran ${command}`, declaration('shell_exec', { command: { type: 'string' } }, { metadata: { tier: 'privileged' } })),
  );
  const audit = new MemoryAuditSink();
  const policy = document ? loadPolicy(document, (name) => registry.get(name)?.declaration) : undefined;
  const executor = new ToolExecutor({ registry, audit, ...(policy ? { policy } : {}), ...options });
  const run = (command = 'npm test') => executor.executeToolCall({ id: 's', name: 'shell_exec', arguments: JSON.stringify({ command }) });
  return { executor, audit, run };
}

describe("an explicit allow rule is the operator's approval", () => {
  it('runs a privileged tool an allow rule names, with no approver (as over MCP), and explain agrees', async () => {
    const { executor, audit, run } = setup({ rules: [{ allow: 'shell_exec' }] });
    expect(executor.explainCall('shell_exec', { command: 'npm test' })).toMatchObject({ decision: 'allow', policyDecision: 'allow' });
    expect(await run()).toMatchObject({ status: 'completed', output: 'ran npm test' });
    expect(audit.records.find((r) => r.type === 'PolicyDecision')).toMatchObject({ effect: 'allow', rule: 'shell_exec', approval: 'policy' });
  });

  it('does not count the default allow as approval of a privileged call', async () => {
    const { executor, run } = setup({ rules: [], default: 'allow' });
    expect(executor.explainCall('shell_exec', { command: 'ls' })).toMatchObject({ decision: 'ask', policyDecision: 'allow' });
    expect(failed(await run('ls')).error.code).toBe('approval_required');
  });

  it('lets an ask rule ask even where an allow rule matches too', async () => {
    const { run } = setup({ rules: [{ allow: 'shell_exec' }, { ask: 'shell_exec(npm publish*)' }] });
    expect(failed(await run('npm publish')).error).toMatchObject({
      code: 'approval_required',
      reason: expect.stringContaining('policy rule shell_exec(npm publish*) asks for approval'),
    });
  });
});

describe('every refusal says who refused and why', () => {
  it.for<[string, PolicyDocument | undefined, Partial<ExecutorOptions>, string, string]>([
    ['a policy rule', { rules: [{ deny: 'shell_exec', reason: 'no shell here' }] }, {}, 'policy_denied', 'denied by policy (rule shell_exec): no shell here'],
    ["the policy's default", { rules: [], default: 'deny' }, {}, 'policy_denied', "no rule allows 'shell_exec' and the policy's default is deny"],
    ['nobody to ask', undefined, {}, 'approval_required', 'no one could be asked, so it was not run'],
    [
      'a host that cannot ask',
      undefined,
      { approve: async () => ({ kind: 'unavailable', message: 'the MCP client does not support elicitation' }) },
      'approval_required',
      'no one could be asked (the MCP client does not support elicitation)',
    ],
    [
      'the person asked',
      undefined,
      { approve: async () => ({ kind: 'reject', message: 'the user declined at the terminal' }) },
      'approval_denied',
      'rejected at approval: the user declined at the terminal',
    ],
  ])('names %s', async ([, document, options, code, text]) => {
    const { run } = setup(document, options);
    const result = await run();
    expect(failed(result).error.code).toBe(code);
    expect(result.content).toContain(text);
    expect(result.content).not.toContain('rejected by the user');
  });
});

describe('an approval question that is answered later', () => {
  it('is neither a refusal by a person nor a call nobody could ask about: the call is deferred, and the audit says so', async () => {
    const { audit, run } = setup({ rules: [{ ask: 'shell_exec' }] }, { approve: async () => ({ kind: 'deferred', message: 'asked through the MCP client' }) });
    const result = await run();
    expect(result).toMatchObject({ status: 'error', error: { code: 'approval_deferred', message: 'asked through the MCP client' } });
    expect(result.content).toContain('the question went to the user (asked through the MCP client)');
    expect(audit.records.find((r) => r.type === 'PolicyDecision')).toMatchObject({ approval: 'deferred' });
  });
});
