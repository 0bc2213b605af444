import { describe, expect, it } from 'vitest';
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { parametersStandardSchema } from '@toolwright/executor';
import type { ToolDeclaration } from '@toolwright/schema';

// A Toolwright declaration's parameters as the Standard Schema the AI SDK's `tool({ inputSchema })` takes: the SDK
// shows the model its JSON Schema (draft-07, what the SDK asks for) and validates the model's input with it.

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (toolCallId: string, input: unknown) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName: 'plot', input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const answer = { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };

const plot: ToolDeclaration = {
  name: 'plot',
  description: 'Plots a point.',
  parameters: {
    type: 'object',
    properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 }, label: { type: 'string' } },
    required: ['point'],
    additionalProperties: false,
  },
  parameterOrder: ['point', 'label'],
  metadata: {
    tier: 'read-only',
    timeoutMs: 5000,
    sideEffects: [],
    capabilities: [],
    determinism: 'pure',
    resources: { timeoutMs: 5000 },
    parallel: true,
    tags: [],
  },
};

describe('parametersStandardSchema as an AI SDK inputSchema', () => {
  it('shows the model the draft-07 schema, runs valid input and refuses invalid input with our issues', async () => {
    const received: unknown[] = [];
    const tools = {
      plot: tool({
        description: plot.description,
        inputSchema: parametersStandardSchema<{ point: [number, number]; label?: string }>(plot),
        execute: async (input) => (received.push(input), `plotted ${input.point.join(',')}`),
      }),
    };
    const model = new MockLanguageModelV4({
      doGenerate: [call('p1', { point: [1, 2], label: 'a' }), call('p2', { point: [1, 'two'], colour: 'red' }), answer],
    });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'plot' });
    expect(result.text).toBe('done');
    expect(model.doGenerateCalls[0]!.tools).toMatchObject([
      {
        name: 'plot',
        inputSchema: {
          type: 'object',
          properties: {
            point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false, minItems: 2 },
            label: { type: 'string' },
          },
          required: ['point'],
          additionalProperties: false,
        },
      },
    ]);
    expect(received).toEqual([{ point: [1, 2], label: 'a' }]);
    const refusal = JSON.stringify((model.doGenerateCalls[2]!.prompt as ModelMessage[]).filter((m) => m.role === 'tool'));
    expect(refusal).toContain("'point[1]' must be a number (got a string)");
    expect(refusal).toContain("unexpected field 'colour'");
  });
});
