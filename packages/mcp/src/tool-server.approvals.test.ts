import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryAuditSink, loadPolicy, type PolicyDocument } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { getToolContext } from '@toolwright/tool';
import { pathToolDeclaration } from './test-support/path-tool.js';
import { McpToolServer } from './tool-server.js';

// Who approves a call over MCP: an explicit allow rule is the operator's approval (no one is asked),
// a client that cannot be asked is "unavailable" (never "the user rejected"), and a protected path is
// named in the question, with an accepted answer confirming it.

const ran: string[] = [];
const declaration = pathToolDeclaration;

async function connected(policy: PolicyDocument, elicit?: (message: string) => 'once' | 'reject') {
  const registry = new ToolRegistry();
  registry.register(
    attachToolDeclaration(
      async (path: string) => {
        ran.push(path);
        return `ran ${path}`;
      },
      declaration('run_it', 'privileged'),
    ),
  );
  const riskLevel = {
    run_it: (args: Record<string, unknown>) =>
      String(args.path).startsWith('.git/') ? { level: 'risky' as const, reason: 'protected', protectedPaths: [String(args.path)] } : ('safe' as const),
  };
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink(), policy: loadPolicy(policy), riskLevel } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.createServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
  const asked: string[] = [];
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { decision: elicit(request.params.message) } };
    });
  await client.connect(clientSide);
  const call = async (path: string) => (await client.callTool({ name: 'run_it', arguments: { path } })) as CallToolResult;
  return { call, asked };
}
const text = (result: CallToolResult) => (result.content as Array<{ text: string }>).map((c) => c.text).join('');

describe('approvals over MCP', () => {
  it('runs a privileged tool that an allow rule names, with nobody to ask', async () => {
    const { call } = await connected({ rules: [{ allow: 'run_it' }] });
    const result = await call('a.txt');
    expect(result.isError).toBeFalsy();
    expect(ran).toContain('a.txt');
  });

  it('says nobody could be asked — not that the user rejected — when the client cannot elicit', async () => {
    const { call } = await connected({ rules: [] });
    const result = await call('b.txt');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/no one could be asked/);
    expect(text(result)).not.toMatch(/rejected by the user|user rejected/);
    expect(ran).not.toContain('b.txt');
  });

  it('names a protected path in the question and runs it only when the person accepts', async () => {
    const yes = await connected({ rules: [] }, () => 'once');
    expect((await yes.call('.git/config')).isError).toBeFalsy();
    expect(yes.asked.join('\n')).toContain('protected path .git/config');
    const no = await connected({ rules: [] }, () => 'reject');
    const refused = await no.call('.git/hooks/pre-commit');
    expect(refused.isError).toBe(true);
    expect(ran).not.toContain('.git/hooks/pre-commit');
  });

  it('shows the whole shape of the call: whitespace padding collapsed, the real length given, controls escaped', async () => {
    const { call, asked } = await connected({ rules: [] }, () => 'reject');
    await call(`a.txt${' '.repeat(4000)}; cp -r ~/.ssh x\u001b[2J`);
    expect(asked[0]).toContain('{"path":"a.txt⟪4,000 spaces⟫; cp -r ~/.ssh x\\u001b[2J"} (path: 4,025 characters, whitespace collapsed)');
    expect(asked[0]!.length).toBeLessThan(300);
  });

  it('does not let a broad allow rule reach a protected path', async () => {
    const { call } = await connected({ rules: [{ allow: 'run_it' }] });
    const result = await call('.git/hooks/post-merge');
    expect(result.isError).toBe(true);
    expect(ran).not.toContain('.git/hooks/post-merge');
  });
});

// An escalation (a call that asks to run outside the sandbox) is named as such, and only an accepted
// form whose `run_outside_sandbox` is true approves it — which the tool's context then says
// (`escalationConfirmed`); an allow rule never does.
const OUTSIDE = 'it runs "npm install" outside the kernel sandbox';
/** The commands whose tool context said a person confirmed running them outside the sandbox. */
const confirmedRuns: string[] = [];
const shellDeclaration: ToolDeclaration = {
  ...declaration('shell_exec', 'privileged'),
  parameterOrder: ['command', 'escalate'],
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, escalate: { type: 'boolean' } },
    required: ['command'],
    additionalProperties: false,
  },
};

async function connectedShell(policy: PolicyDocument, answer?: (message: string, schema: unknown) => Record<string, unknown>) {
  const registry = new ToolRegistry();
  registry.register(
    attachToolDeclaration(async (command: string, escalate?: boolean) => {
      ran.push(`${command}${escalate ? ' (outside)' : ''}`);
      if (getToolContext()?.escalationConfirmed === true) confirmedRuns.push(command);
      return 'ran';
    }, shellDeclaration),
  );
  const riskLevel = {
    shell_exec: (args: Record<string, unknown>) =>
      args.escalate === true ? { level: 'risky' as const, reason: OUTSIDE, escalation: OUTSIDE } : ('safe' as const),
  };
  const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink(), policy: loadPolicy(policy), riskLevel } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.createServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
  const asked: { message: string; schema: unknown }[] = [];
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const schema = 'requestedSchema' in request.params ? request.params.requestedSchema : undefined;
      asked.push({ message: request.params.message, schema });
      return { action: 'accept', content: answer(request.params.message, schema) as Record<string, string | boolean> };
    });
  await client.connect(clientSide);
  const call = async (command: string) => (await client.callTool({ name: 'shell_exec', arguments: { command, escalate: true } })) as CallToolResult;
  return { call, asked };
}

describe("'always' answers over MCP", () => {
  it("are each client's own: one connection's always is no approval for another's call", async () => {
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async (path: string) => `ran ${path}`, declaration('run_it', 'privileged')));
    const tools = new McpToolServer({ registry, executor: { audit: new MemoryAuditSink() } });
    const client = async (decision: 'always' | 'reject') => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await tools.createServer().connect(serverSide);
      const connection = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      connection.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { decision } };
      });
      await connection.connect(clientSide);
      const call = async () => (await connection.callTool({ name: 'run_it', arguments: { path: 'a.txt' } })) as CallToolResult;
      return { call, asked, close: () => connection.close() };
    };
    const trusting = await client('always');
    const careful = await client('reject');
    expect((await trusting.call()).isError).toBeFalsy();
    expect((await trusting.call()).isError).toBeFalsy();
    expect(trusting.asked).toHaveLength(1); // remembered for this client
    const refused = await careful.call();
    expect(refused.isError).toBe(true);
    expect(careful.asked).toHaveLength(1); // asked: the other client's always is not its approval
    // A connection that closes takes its approvals with it: the same client connecting again is asked again.
    await trusting.close();
    const again = await client('always');
    expect((await again.call()).isError).toBeFalsy();
    expect(again.asked).toHaveLength(1);
  });
});

describe('escalations over MCP', () => {
  it('names an escalation as running outside the sandbox and runs it once the form confirms it', async () => {
    const { call, asked } = await connectedShell({ rules: [{ allow: 'shell_exec' }] }, () => ({ run_outside_sandbox: true }));
    expect((await call('npm ci')).isError).toBeFalsy();
    expect(ran).toContain('npm ci (outside)');
    expect(confirmedRuns).toContain('npm ci');
    expect(asked[0]!.message).toContain(`OUTSIDE THE SANDBOX? ${OUTSIDE}.`);
    expect(asked[0]!.schema).toMatchObject({ properties: { run_outside_sandbox: { type: 'boolean' } }, required: ['run_outside_sandbox'] });
  });

  it.for<[string, Record<string, unknown>, string]>([
    // The SDK checks the answer against the form: one without the field never reaches the executor as an approval.
    ['the usual decision only (a client answering every form alike)', { decision: 'once' }, 'no one could be asked to confirm that'],
    ['the confirmation left false', { run_outside_sandbox: false }, 'the user did not confirm running it outside the sandbox'],
  ])('refuses an accepted form with %s', async ([, content, said]) => {
    const { call } = await connectedShell({ rules: [] }, () => content);
    const result = await call('npm run deploy');
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(said);
    expect(ran).not.toContain('npm run deploy (outside)');
  });

  it('never lets an allow rule approve it when the client cannot be asked', async () => {
    const { call } = await connectedShell({ rules: [{ allow: '*' }] });
    const result = await call('curl https://example.com');
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('no one could be asked to confirm that');
    expect(ran).not.toContain('curl https://example.com (outside)');
  });
});
