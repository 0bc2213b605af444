import { formatModelMessage } from './model-message.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';

export type ConversationFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** OpenAI Chat Completions: one `tool` message per call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}
/** OpenAI Responses: one `function_call_output` item per call. */
export interface OpenAIResponsesToolOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}
/** Anthropic: all results of a turn in one user message of `tool_result` blocks. */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }[];
}
/** Gemini: all results of a turn in one `user` content of `functionResponse` parts. */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: { functionResponse: { id?: string; name: string; response: Record<string, unknown> } }[];
}

/** Turns a turn's results into the provider's tool-result messages (results in call order). */
export function toToolResultMessages(results: readonly ToolCallResult[], format: 'openai-chat'): OpenAIChatToolMessage[];
export function toToolResultMessages(results: readonly ToolCallResult[], format: 'openai-responses'): OpenAIResponsesToolOutput[];
export function toToolResultMessages(results: readonly ToolCallResult[], format: 'anthropic'): AnthropicToolResultMessage[];
export function toToolResultMessages(results: readonly ToolCallResult[], format: 'gemini'): GeminiFunctionResponseContent[];
export function toToolResultMessages(results: readonly ToolCallResult[], format: ConversationFormat): unknown[] {
  switch (format) {
    case 'openai-chat':
      return results.map((r) => ({ role: 'tool', tool_call_id: r.callId, content: r.content }));
    case 'openai-responses':
      return results.map((r) => ({ type: 'function_call_output', call_id: r.callId, output: r.content }));
    case 'anthropic':
      return results.length === 0
        ? []
        : [
            {
              role: 'user',
              content: results.map((r) => ({
                type: 'tool_result',
                tool_use_id: r.callId,
                content: r.content,
                ...(r.status === 'error' ? { is_error: true } : {}),
              })),
            },
          ];
    case 'gemini':
      return results.length === 0
        ? []
        : [
            {
              role: 'user',
              parts: results.map((r) => ({
                functionResponse: { id: r.callId, name: r.tool, response: r.status === 'error' ? { error: r.content } : { output: r.output ?? r.content } },
              })),
            },
          ];
  }
}

/**
 * A result for every call of a turn, in call order: calls with no result (a crash, an interruption,
 * a lost connection) get an `interrupted` placeholder, so a history is never left with a dangling call
 * (providers reject such histories).
 */
export function fillDanglingCalls(
  calls: readonly ToolCall[],
  results: readonly ToolCallResult[],
  reason = 'the call did not finish (the session was interrupted)',
): ToolCallResult[] {
  const byId = new Map(results.map((r) => [r.callId, r]));
  return calls.map(
    (call) =>
      byId.get(call.id) ?? {
        callId: call.id,
        tool: call.name,
        status: 'error',
        error: { code: 'interrupted', reason },
        content: formatModelMessage(call.name, { code: 'interrupted', reason }),
        truncated: false,
        durationMs: 0,
      },
  );
}

type ChatMessage = { role: string; tool_calls?: { id: string; function: { name: string } }[]; tool_call_id?: string; [key: string]: unknown };

/**
 * Repairs an OpenAI Chat history in place of a copy: after each assistant message with `tool_calls`,
 * every call must be answered by a `tool` message before the next non-tool message; missing answers
 * are inserted as interruption placeholders.
 */
export function repairOpenAIChatHistory(messages: readonly ChatMessage[], reason?: string): ChatMessage[] {
  const repaired: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    repaired.push(message);
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const answered = new Set<string>();
    while (i + 1 < messages.length && messages[i + 1]!.role === 'tool') {
      const tool = messages[++i]!;
      if (tool.tool_call_id) answered.add(tool.tool_call_id);
      repaired.push(tool);
    }
    const missing = message.tool_calls.filter((c) => !answered.has(c.id)).map((c) => ({ id: c.id, name: c.function.name, arguments: '' }));
    for (const placeholder of toToolResultMessages(fillDanglingCalls(missing, [], reason), 'openai-chat')) repaired.push({ ...placeholder });
  }
  return repaired;
}

type AnthropicBlock = { type: string; id?: string; name?: string; tool_use_id?: string; [key: string]: unknown };
type AnthropicMessage = { role: 'user' | 'assistant'; content: string | AnthropicBlock[] };

/** The Anthropic counterpart: every `tool_use` block gets a `tool_result` in the next user message. */
export function repairAnthropicHistory(messages: readonly AnthropicMessage[], reason?: string): AnthropicMessage[] {
  const repaired: AnthropicMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    repaired.push(message);
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const uses = message.content.filter((b) => b.type === 'tool_use' && b.id);
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const nextBlocks = next && next.role === 'user' && Array.isArray(next.content) ? next.content : undefined;
    const answered = new Set((nextBlocks ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
    const missing = uses.filter((u) => !answered.has(u.id)).map((u) => ({ id: u.id!, name: u.name ?? '', arguments: '' }));
    if (missing.length === 0) continue;
    const placeholders = toToolResultMessages(fillDanglingCalls(missing, [], reason), 'anthropic')[0]!.content;
    if (nextBlocks) {
      repaired.push({ role: 'user', content: [...placeholders, ...nextBlocks] });
      i++;
    } else {
      repaired.push({ role: 'user', content: placeholders });
    }
  }
  return repaired;
}
