import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadPolicy, type ExecutorOptions } from '@toolwright/executor';
import { coreToolsRiskLevels, WorkspacePolicy } from '@toolwright/core-tools';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { callTool } from './call.js';
import { explainPolicy } from './policy.js';

const metadata = (tier: 'side-effecting' | 'privileged') =>
  ({
    tier,
    timeoutMs: 5_000,
    sideEffects: [],
    capabilities: [],
    determinism: 'maybe',
    resources: { timeoutMs: 5_000 },
    parallel: false,
    tags: [],
  }) as unknown as ToolDeclaration['metadata'];
const tool = (name: string, parameter: string, tier: 'side-effecting' | 'privileged'): ToolDeclaration => ({
  name,
  description: `The ${name} test tool.`,
  parameterOrder: [parameter],
  metadata: metadata(tier),
  parameters: { type: 'object', properties: { [parameter]: { type: 'string' } }, required: [parameter], additionalProperties: false },
});

function setup() {
  const written: string[] = [];
  const registry = new ToolRegistry();
  registry.register(
    attachToolDeclaration(
      async (path: string) => {
        written.push(path);
        return 'written';
      },
      tool('file_write', 'path', 'side-effecting'),
    ),
  );
  const shell = tool('shell_exec', 'command', 'privileged');
  registry.register(
    attachToolDeclaration(async (command: string, escalate?: boolean) => `ran ${command}${escalate ? ' outside the sandbox' : ''}`, {
      ...shell,
      parameterOrder: ['command', 'escalate'],
      parameters: { ...shell.parameters, properties: { command: { type: 'string' }, escalate: { type: 'boolean' } } },
    }),
  );
  // What core-tools' risk hook reports for a protected path; the shell's is core-tools' own (escalation).
  const riskLevel: ExecutorOptions['riskLevel'] = {
    file_write: (args) => (String(args.path).startsWith('.git/') ? { level: 'risky', protectedPaths: [String(args.path)] } : 'safe'),
    shell_exec: coreToolsRiskLevels({ workspace: new WorkspacePolicy({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ws-')) }) }).shell_exec!,
  };
  return { registry, written, executor: { riskLevel, riskMode: 'autorun_none' as const } };
}

const ESCALATE = '{"command":"npm install","escalate":true}';
const OUTSIDE = 'it runs "npm install" outside the kernel sandbox, where files outside the workspace and the network are within its reach';

/** A terminal that answers `answer` to the first question. */
function terminal(answer: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  stdin.end(`${answer}\n`);
  const stderr = new PassThrough();
  let prompt = '';
  stderr.on('data', (chunk: Buffer) => {
    prompt += chunk.toString();
  });
  return { stdin, stderr, prompt: () => prompt };
}

describe(callTool, () => {
  it('--yes approves an ordinary risky call but never a protected path without a terminal', async () => {
    const { registry, written, executor } = setup();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    const ordinary = await callTool(registry, { tool: 'file_write', args: '{"path":"src/a.ts"}', yes: true, executor, stdin });
    expect(ordinary.status).toBe('completed');
    const hook = await callTool(registry, { tool: 'file_write', args: '{"path":".git/hooks/pre-commit"}', yes: true, executor, stdin });
    expect(hook.error).toMatchObject({ code: 'protected_path_unapproved', details: { approval: 'blanket', paths: ['.git/hooks/pre-commit'] } });
    expect(hook.content).toContain('--yes');
    expect(written).toEqual(['src/a.ts']);
  });

  it('--yes asks at a terminal for a protected path, showing it, and a yes there confirms it', async () => {
    const { registry, written, executor } = setup();
    const io = terminal('y');
    const report = await callTool(registry, { tool: 'file_write', args: '{"path":".git/config"}', yes: true, executor, stdin: io.stdin, stderr: io.stderr });
    expect(report.status).toBe('completed');
    expect(io.prompt()).toContain('it touches protected path: .git/config');
    expect(written).toEqual(['.git/config']);
  });

  it('--yes refuses an escalation without a terminal: a person must confirm it interactively', async () => {
    const { registry, executor } = setup();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    const report = await callTool(registry, { tool: 'shell_exec', args: ESCALATE, yes: true, executor, stdin });
    expect(report.error).toMatchObject({ code: 'escalation_unapproved', details: { approval: 'blanket', escalation: OUTSIDE } });
    expect(report.content).toContain('blanket approval (such as --yes, or approving every call) never lets a call run outside the sandbox');
    expect(report.content).toContain('Only a person confirming it interactively can allow it');
    expect(report.status).toBe('error');
  });

  it.for([true, false])('at a terminal (--yes: %s) names an escalation as running outside the sandbox, and only "escalate" confirms it', async (yes) => {
    const { registry, executor } = setup();
    const declined = terminal('y');
    const refused = await callTool(registry, { tool: 'shell_exec', args: ESCALATE, yes, executor, stdin: declined.stdin, stderr: declined.stderr });
    expect(refused.error).toMatchObject({ code: 'approval_denied', details: { message: 'the user did not confirm running it outside the sandbox' } });
    expect(declined.prompt()).toContain(`RUN OUTSIDE THE SANDBOX: ${OUTSIDE}`);
    expect(declined.prompt()).toContain('Type "escalate" to run this one call outside the sandbox');
    const confirmed = terminal('escalate');
    const report = await callTool(registry, { tool: 'shell_exec', args: ESCALATE, yes, executor, stdin: confirmed.stdin, stderr: confirmed.stderr });
    expect(report).toMatchObject({ status: 'completed', output: 'ran npm install outside the sandbox' });
  });

  it('the terminal prompt shows the whole shape of the call: padding collapsed with the real length, controls escaped', async () => {
    const { registry, executor } = setup();
    const io = terminal('n');
    const command = `ls src${' '.repeat(4000)}; cp -r ~/.ssh x\u009b2J`;
    await callTool(registry, { tool: 'shell_exec', args: JSON.stringify({ command }), executor, stdin: io.stdin, stderr: io.stderr });
    expect(io.prompt()).toContain('shell_exec {"command":"ls src⟪4,000 spaces⟫; cp -r ~/.ssh x\\u009b2J"} (command: 4,025 characters, whitespace collapsed)');
    expect(io.prompt()).not.toContain('\u009b');
  });

  it('a no at the terminal is reported as the user declining', async () => {
    const { registry, executor } = setup();
    const io = terminal('n');
    const report = await callTool(registry, { tool: 'file_write', args: '{"path":"src/a.ts"}', executor, stdin: io.stdin, stderr: io.stderr });
    expect(report.error?.code).toBe('approval_denied');
    expect(report.content).toContain('the user declined at the terminal');
  });
});

describe(explainPolicy, () => {
  it('agrees with call: an allow rule runs a privileged tool with nobody to ask', async () => {
    const { registry, executor } = setup();
    const policy = loadPolicy({ rules: [{ allow: 'shell_exec' }] }, (name) => registry.get(name)?.declaration);
    expect(
      explainPolicy({ registry, policy, tool: 'shell_exec', argsText: '{"command":"npm test"}', format: 'text', hooks: { riskLevel: executor.riskLevel } }),
    ).toMatchObject({ decision: 'allow' });
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    expect(
      (
        await callTool(registry, {
          tool: 'shell_exec',
          args: '{"command":"npm test"}',
          executor: { ...executor, riskMode: 'autorun_no_public', policy },
          stdin,
        })
      ).status,
    ).toBe('completed');
  });

  it('says ASK for a protected path no rule names, and why', () => {
    const { registry, executor } = setup();
    const policy = loadPolicy({ rules: [{ allow: 'file_write' }] }, (name) => registry.get(name)?.declaration);
    const result = explainPolicy({
      registry,
      policy,
      tool: 'file_write',
      argsText: '{"path":".git/config"}',
      format: 'text',
      hooks: { riskLevel: executor.riskLevel },
    });
    expect(result.decision).toBe('ask');
    expect(result.text).toContain('file_write: ASK');
    expect(result.text).toContain('it touches the protected path .git/config, which allow rule file_write does not name');
  });

  it('says ASK for an escalation an allow rule matches, naming it as running outside the sandbox', () => {
    const { registry, executor } = setup();
    const policy = loadPolicy({ rules: [{ allow: 'shell_exec' }] }, (name) => registry.get(name)?.declaration);
    const result = explainPolicy({ registry, policy, tool: 'shell_exec', argsText: ESCALATE, format: 'text', hooks: { riskLevel: executor.riskLevel } });
    expect(result.decision).toBe('ask');
    expect(result.text).toContain('shell_exec: ASK');
    expect(result.text).toContain(`run outside the sandbox: ${OUTSIDE} — only a person confirming it approves that`);
    expect(
      JSON.parse(explainPolicy({ registry, policy, tool: 'shell_exec', argsText: ESCALATE, format: 'json', hooks: { riskLevel: executor.riskLevel } }).text),
    ).toMatchObject({ escalation: OUTSIDE });
    expect(
      explainPolicy({ registry, policy, tool: 'shell_exec', argsText: '{"command":"npm install"}', format: 'text', hooks: { riskLevel: executor.riskLevel } })
        .decision,
    ).toBe('allow');
  });

  it('refuses an argument number JavaScript cannot hold, naming it', () => {
    const { registry, executor } = setup();
    const policy = loadPolicy({ rules: [] });
    expect(() =>
      explainPolicy({ registry, policy, tool: 'file_write', argsText: '{"path":"a","n":1e400}', format: 'text', hooks: { riskLevel: executor.riskLevel } }),
    ).toThrow("'n' is 1e400");
  });
});
