import { describe, expect, it } from 'vitest';
import { fillDanglingCalls, repairAnthropicHistory, repairOpenAIChatHistory, toToolResultMessages } from './conversation.js';
import { canonicalJson, sha256Hex } from './output/normalize-output.js';
import type { ToolCallResult } from './tool-call.js';

const ok: ToolCallResult = {
  callId: 'a',
  tool: 'read_file',
  status: 'completed',
  content: 'text',
  output: 'text',
  originalBytes: 4,
  outputHash: sha256Hex(canonicalJson('text')),
  truncated: false,
  durationMs: 1,
};
const bad: ToolCallResult = {
  callId: 'b',
  tool: 'read_file',
  status: 'error',
  content: 'Tool execution failed: x',
  error: { code: 'tool_failed', message: 'x' },
  truncated: false,
  durationMs: 1,
};

describe(toToolResultMessages, () => {
  it('builds each provider shape in call order', () => {
    expect(toToolResultMessages([ok, bad], 'openai-chat')).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'text' },
      { role: 'tool', tool_call_id: 'b', content: 'Tool execution failed: x' },
    ]);
    expect(toToolResultMessages([ok], 'openai-responses')).toEqual([{ type: 'function_call_output', call_id: 'a', output: 'text' }]);
    expect(toToolResultMessages([ok, bad], 'anthropic')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'text' },
          { type: 'tool_result', tool_use_id: 'b', content: 'Tool execution failed: x', is_error: true },
        ],
      },
    ]);
    expect(toToolResultMessages([ok, bad], 'gemini')[0]!.parts.map((p) => p.functionResponse.response)).toEqual([
      { output: 'text' },
      { error: 'Tool execution failed: x' },
    ]);
  });
});

describe(fillDanglingCalls, () => {
  it('answers every call, keeping real results and order', () => {
    const filled = fillDanglingCalls(
      [
        { id: 'a', name: 'read_file', arguments: '{}' },
        { id: 'z', name: 'write_file', arguments: '{}' },
      ],
      [ok],
    );
    expect(filled.map((r) => [r.callId, r.status, r.status === 'error' ? r.error.code : undefined])).toEqual([
      ['a', 'completed', undefined],
      ['z', 'error', 'interrupted'],
    ]);
  });
});

describe(repairOpenAIChatHistory, () => {
  it('inserts a tool message for each unanswered call right after the answered ones', () => {
    const history = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', function: { name: 'read_file' } },
          { id: 'b', function: { name: 'write_file' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'text' },
      { role: 'user', content: 'next' },
    ];
    const repaired = repairOpenAIChatHistory(history);
    expect(repaired.map((m) => [m.role, m.tool_call_id ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'a'],
      ['tool', 'b'],
      ['user', null],
    ]);
  });
});

describe(repairAnthropicHistory, () => {
  it('adds tool_result blocks for unanswered tool_use blocks', () => {
    const repaired = repairAnthropicHistory([
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'read_file', input: {} },
          { type: 'tool_use', id: 'b', name: 'read_file', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'text' }] },
    ]);
    expect(repaired).toHaveLength(2);
    const blocks = repaired[1]!.content as { tool_use_id: string; is_error?: boolean }[];
    expect(blocks.map((b) => [b.tool_use_id, b.is_error ?? false])).toEqual([
      ['b', true],
      ['a', false],
    ]);
  });

  it('adds a user message when the history ends after the tool_use', () => {
    const repaired = repairAnthropicHistory([{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }] }]);
    expect(repaired[1]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', is_error: true }] });
  });
});
