// The AI SDK's own generateText loop, driven by its own mock language model, over toAISdkTools.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { agentScenario } from './support/agent-scenario.js';
import { toAISdkSettings, toAISdkTools } from '@toolwright/ai-sdk';

const scenario = agentScenario('aisdk');
const setup = scenario.setup;
afterAll(() => scenario.cleanup());

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const calls = (...list: [string, string, unknown][]) => ({
  content: list.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});

/** The text of every tool result / error the model was sent in a prompt. */
function toolOutputsIn(prompt: unknown): string {
  return JSON.stringify((prompt as ModelMessage[]).filter((m) => m.role === 'tool'));
}

describe('AI SDK generateText through the executor', () => {
  it('runs a valid call, corrects a malformed one, denies by policy and batches parallel reads — as audited', async () => {
    const { executor, audit } = setup();
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(['c1', 'file_read', { limit: 'ten' }]),
        calls(['c2', 'file_read', { path: 'notes.txt' }]),
        calls(['c3', 'file_delete', { path: 'notes.txt' }]),
        calls(['c4', 'file_read', { path: 'notes.txt', limit: 1 }], ['c5', 'file_search', { pattern: 'beta' }]),
        answer('done'),
      ],
    });
    const result = await generateText({ model, tools: toAISdkTools(executor), stopWhen: stepCountIs(8), prompt: 'read my notes' });
    expect(result.text).toBe('done');
    expect(result.steps).toHaveLength(5);
    const prompts = model.doGenerateCalls.map((c) => toolOutputsIn(c.prompt));
    expect(prompts[1]).toContain("missing required field 'path'");
    // The model reads file_read's rendering (numbered lines as text); the host keeps the structured output.
    expect(prompts[2]).toContain('"output":{"type":"text","value":"1\\talpha');
    expect(prompts[2]).not.toContain('startLine');
    expect(result.steps[1]!.toolResults[0]!.output).toMatchObject({ content: expect.stringContaining('1\talpha'), startLine: 1 });
    expect(prompts[1]).toContain('"value":"Tool execution failed: the arguments have 2 problems');
    expect(prompts[3]).toContain('the notes are kept');
    expect(prompts[4]).toContain('beta');
    const terminal = audit.records.filter((r) => /ToolCall(Completed|Rejected|Failed)/.test(r.type)).map((r) => `${r.callId}:${r.type}`);
    expect(terminal.sort()).toEqual(['c1:ToolCallRejected', 'c2:ToolCallCompleted', 'c3:ToolCallRejected', 'c4:ToolCallCompleted', 'c5:ToolCallCompleted']);
    expect(audit.records.find((r) => r.callId === 'c3' && r.type === 'PolicyDecision')).toMatchObject({ effect: 'deny', rule: 'file_delete' });
  });

  it('maps approvals onto the SDK approval flow: nothing runs until approved, and then it runs once', async () => {
    const { executor, audit, root } = setup({ riskMode: 'autorun_none' });
    const model = new MockLanguageModelV4({ doGenerate: [calls(['w1', 'file_write', { path: 'out.txt', content: 'hello' }]), answer('written')] });
    const tools = toAISdkTools(executor);
    const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'write' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(fs.existsSync(path.join(root, 'out.txt'))).toBe(false);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'write' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: (request as { approvalId: string }).approvalId, approved: true }] },
    ];
    const second = await generateText({ model, tools, stopWhen: stepCountIs(4), messages });
    expect(second.text).toBe('written');
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('hello');
    expect(audit.records.find((r) => r.callId === 'w1' && r.type === 'PolicyDecision')).toMatchObject({ approval: 'token' });
  });

  it('asks through toolApproval (toAISdkSettings): nothing runs until approved, a denied write never runs', async () => {
    const { executor, audit, root } = setup({ riskMode: 'autorun_none' });
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(['w1', 'file_write', { path: 'out.txt', content: 'hello' }], ['w2', 'file_write', { path: 'no.txt', content: 'no' }]),
        answer('written'),
      ],
    });
    const settings = toAISdkSettings(executor);
    const first = await generateText({ model, ...settings, stopWhen: stepCountIs(4), prompt: 'write' });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((request) => request.toolCall.toolCallId)).toEqual(['w1', 'w2']);
    expect(fs.existsSync(path.join(root, 'out.txt'))).toBe(false);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'write' },
      ...first.response.messages,
      {
        role: 'tool',
        content: requests.map((request) => ({
          type: 'tool-approval-response' as const,
          approvalId: request.approvalId,
          approved: request.toolCall.toolCallId === 'w1',
        })),
      },
    ];
    const second = await generateText({ model, ...settings, stopWhen: stepCountIs(4), messages });
    expect(second.text).toBe('written');
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('hello');
    expect(fs.existsSync(path.join(root, 'no.txt'))).toBe(false);
    expect(audit.records.filter((r) => r.type === 'PolicyDecision').map((r) => `${r.callId}:${String(r.approval)}`)).toEqual(['w1:token']);
  });
});
