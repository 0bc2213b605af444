// The OpenAI Agents JS Runner, with a scripted model, over toAgentTools.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Runner, Usage, setTracingDisabled, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { agentScenario } from './support/agent-scenario.js';
import { toAgentTools } from '@toolwright/openai-agents';

const scenario = agentScenario('agents');
const setup = scenario.setup;
beforeAll(() => setTracingDisabled(true));
afterAll(() => scenario.cleanup());

type Turn = { calls: [string, string, unknown][] } | { text: string };

/** A model that plays a fixed script, one turn per request, and records what it was sent. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: Turn[]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.turns.shift() ?? { text: 'out of script' };
    const output =
      'calls' in turn
        ? turn.calls.map(([callId, name, args]) => ({
            type: 'function_call' as const,
            callId,
            name,
            arguments: JSON.stringify(args),
            status: 'completed' as const,
          }))
        : [
            {
              type: 'message' as const,
              role: 'assistant' as const,
              status: 'completed' as const,
              content: [{ type: 'output_text' as const, text: turn.text }],
            },
          ];
    return { usage: new Usage(), output, responseId: `r${this.requests.length}` };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

const sentOutputs = (request: ModelRequest) =>
  JSON.stringify(Array.isArray(request.input) ? request.input.filter((item) => (item as { type?: string }).type === 'function_call_result') : []);

describe('OpenAI Agents Runner through the executor', () => {
  it('runs a valid call, corrects a malformed one, denies by policy and runs parallel reads, with strict schemas decoded', async () => {
    const { executor, audit } = setup();
    const model = new ScriptedModel([
      { calls: [['c1', 'file_read', { path: null, offset: null, limit: 'ten' }]] },
      // strict mode: every property present, null for "not given" — decoded before validation
      { calls: [['c2', 'file_read', { path: 'notes.txt', offset: null, limit: null }]] },
      { calls: [['c3', 'file_delete', { path: 'notes.txt', recursive: null }]] },
      {
        calls: [
          ['c4', 'file_read', { path: 'notes.txt', offset: null, limit: 1 }],
          ['c5', 'glob', { pattern: '*.txt', path: null, limit: null }],
        ],
      },
      { text: 'done' },
    ]);
    const agent = new Agent({ name: 'assistant', instructions: 'help', model, tools: toAgentTools(executor) });
    const result = await new Runner().run(agent, 'read my notes', { maxTurns: 8 });
    expect(result.finalOutput).toBe('done');
    const tools = model.requests[0]!.tools as { name: string; strict?: boolean; parameters?: { required?: string[] } }[];
    const fileRead = tools.find((t) => t.name === 'file_read')!;
    expect(fileRead.strict).toBe(true);
    expect(fileRead.parameters?.required).toEqual(['path', 'offset', 'limit']);
    expect(sentOutputs(model.requests[1]!)).toContain("'path' must be a string");
    expect(sentOutputs(model.requests[1]!)).toContain("'limit' must be an integer");
    expect(sentOutputs(model.requests[2]!)).toContain('1\\talpha');
    expect(sentOutputs(model.requests[3]!)).toContain('the notes are kept');
    expect(sentOutputs(model.requests[4]!)).toContain('notes.txt');
    const terminal = audit.records.filter((r) => /ToolCall(Completed|Rejected|Failed)/.test(r.type)).map((r) => `${r.callId}:${r.type}`);
    expect(terminal.sort()).toEqual(['c1:ToolCallRejected', 'c2:ToolCallCompleted', 'c3:ToolCallRejected', 'c4:ToolCallCompleted', 'c5:ToolCallCompleted']);
  });

  it('turns a call that needs approval into an interruption, and runs it once approved', async () => {
    const { executor, root } = setup({ riskMode: 'autorun_none' });
    const model = new ScriptedModel([{ calls: [['w1', 'file_write', { path: 'out.txt', content: 'hello' }]] }, { text: 'written' }]);
    const agent = new Agent({ name: 'assistant', instructions: 'help', model, tools: toAgentTools(executor) });
    const runner = new Runner();
    const first = await runner.run(agent, 'write', { maxTurns: 4 });
    expect(first.interruptions).toHaveLength(1);
    expect(fs.existsSync(path.join(root, 'out.txt'))).toBe(false);
    first.state.approve(first.interruptions[0]!);
    const second = await runner.run(agent, first.state, { maxTurns: 4 });
    expect(second.finalOutput).toBe('written');
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('hello');
  });
});
