import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { runToolTurn, toolCallsOf } from './provider-turns.js';

function executor() {
  const registry = new ToolRegistry();
  registry.register(defineTool(async (city: string) => ({ city, temp: 21 }), declaration('get_weather', { city: { type: 'string' } })));
  return new ToolExecutor({ registry, audit: new MemoryAuditSink() });
}

describe('plain provider loops', () => {
  it('OpenAI Chat Completions: runs the tool calls and returns tool messages', async () => {
    const response = {
      choices: [
        {
          message: {
            tool_calls: [
              { type: 'function' as const, id: 'call_1', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } },
              { type: 'function' as const, id: 'call_2', function: { name: 'get_weather', arguments: '{"town":"Porto"}' } },
            ],
          },
        },
      ],
    };
    const { results, messages } = await runToolTurn(executor(), { format: 'openai-chat', response });
    expect(results.map((r) => r.status)).toEqual(['completed', 'error']);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Lisbon","temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: expect.stringContaining("missing required field 'city'") },
    ]);
  });

  it('OpenAI Responses, Anthropic and Gemini responses', async () => {
    const responses = await runToolTurn(executor(), {
      format: 'openai-responses',
      response: { output: [{ type: 'reasoning' }, { type: 'function_call', call_id: 'fc_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
    });
    expect(responses.messages).toEqual([{ type: 'function_call_output', call_id: 'fc_1', output: '{"city":"Oslo","temp":21}' }]);
    const anthropic = await runToolTurn(executor(), {
      format: 'anthropic',
      response: { content: [{ type: 'text' }, { type: 'tool_use', id: 'tu_1', name: 'get_weather', input: { city: 'Rome' } }] },
    });
    expect(anthropic.messages).toEqual([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: '{"city":"Rome","temp":21}' }] }]);
    const gemini = await runToolTurn(executor(), {
      format: 'gemini',
      response: { candidates: [{ content: { parts: [{ functionCall: { name: 'get_weather', args: { city: 'Bern' } } }] } }] },
    });
    expect(gemini.messages).toEqual([
      { role: 'user', parts: [{ functionResponse: { id: 'gemini_call_0', name: 'get_weather', response: { output: { city: 'Bern', temp: 21 } } } }] },
    ]);
  });

  it('a response without tool calls yields nothing to run', () => {
    expect(toolCallsOf({ format: 'openai-chat', response: { choices: [{ message: { tool_calls: null } }] } })).toEqual([]);
    expect(toolCallsOf({ format: 'gemini', response: {} })).toEqual([]);
  });
});
