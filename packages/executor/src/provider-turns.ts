import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { BatchOptions, CallContext } from './executor-options.js';
import type { ToolExecutor } from './tool-executor.js';
import { DeferredToolSet } from './deferred-tool-set.js';
import {
  toToolResultMessages,
  type AnthropicToolResultMessage,
  type GeminiFunctionResponseContent,
  type OpenAIChatToolMessage,
  type OpenAIResponsesToolOutput,
} from './conversation.js';

/** The parts of an OpenAI Chat Completion this reads (the SDK's `ChatCompletion` fits). */
export interface OpenAIChatCompletionLike {
  choices: readonly {
    message: {
      tool_calls?: readonly ({ type: 'function'; id: string; function: { name: string; arguments: string } } | { type: string; id: string })[] | null;
    };
  }[];
}
/** The parts of an OpenAI Responses API response this reads (the SDK's `Response` fits). */
export interface OpenAIResponseLike {
  output: readonly { type: string; call_id?: unknown; name?: unknown; arguments?: unknown }[];
}
/** The parts of an Anthropic message this reads (the SDK's `Message` fits). */
export interface AnthropicMessageLike {
  content: readonly { type: string; id?: unknown; name?: unknown; input?: unknown }[];
}
/** The parts of a Gemini response this reads (the SDK's `GenerateContentResponse` fits). */
export interface GeminiResponseLike {
  candidates?: readonly {
    content?: { parts?: readonly { functionCall?: { id?: string | null; name?: string | null; args?: Record<string, unknown> | null } }[] };
  }[];
}

export type ProviderTurn =
  | { format: 'openai-chat'; response: OpenAIChatCompletionLike }
  | { format: 'openai-responses'; response: OpenAIResponseLike }
  | { format: 'anthropic'; response: AnthropicMessageLike }
  | { format: 'gemini'; response: GeminiResponseLike };

/** The tool calls of one model response, in order, as the executor takes them. */
export function toolCallsOf(turn: ProviderTurn): ToolCall[] {
  switch (turn.format) {
    case 'openai-chat':
      return (turn.response.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' && 'function' in call ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      );
    case 'openai-responses':
      return turn.response.output.flatMap((item) =>
        item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string'
          ? [{ id: item.call_id, name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : argumentsOf(item.arguments) }]
          : [],
      );
    case 'anthropic':
      return turn.response.content.flatMap((block) =>
        block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string'
          ? [{ id: block.id, name: block.name, arguments: argumentsOf(block.input) }]
          : [],
      );
    case 'gemini':
      return (turn.response.candidates?.[0]?.content?.parts ?? []).flatMap((part, index) =>
        part.functionCall?.name
          ? [{ id: part.functionCall.id ?? `gemini_call_${index}`, name: part.functionCall.name, arguments: argumentsOf(part.functionCall.args) }]
          : [],
      );
  }
}

/** Arguments a provider sent parsed, handed to the executor as they are (it checks and copies them); none is `{}`. */
function argumentsOf(input: unknown): ToolCall['arguments'] {
  return input === undefined || input === null ? {} : (input as ToolCall['arguments']);
}

type MessagesOf<F extends ProviderTurn['format']> = F extends 'openai-chat'
  ? OpenAIChatToolMessage[]
  : F extends 'openai-responses'
    ? OpenAIResponsesToolOutput[]
    : F extends 'anthropic'
      ? AnthropicToolResultMessage[]
      : GeminiFunctionResponseContent[];

/**
 * One step of a plain provider loop: takes the model's response, runs its tool calls as one
 * executor batch (reads in parallel, writes in order), and returns the results and the tool-result
 * messages to append, in the provider's own shape. With a `DeferredToolSet` as `context.offeredTools`,
 * the calls are held to the tools it offered, and once the batch has run the tools its searches found
 * are loaded (`loaded`): send `offeredTools.declarations()` as the next turn's tools.
 */
export async function runToolTurn<T extends ProviderTurn>(
  executor: ToolExecutor,
  turn: T,
  context: CallContext = {},
  options: BatchOptions = {},
): Promise<{ calls: ToolCall[]; results: ToolCallResult[]; messages: MessagesOf<T['format']>; loaded: string[] }> {
  const calls = toolCallsOf(turn);
  const results = calls.length > 0 ? await executor.executeBatch(calls, context, options) : [];
  const messages = toToolResultMessages(results, turn.format as 'openai-chat') as unknown as MessagesOf<T['format']>;
  // After the whole batch: a tool found in this turn is offered from the next one, whatever order the calls ran in.
  const loaded = context.offeredTools instanceof DeferredToolSet ? context.offeredTools.loadFound(results) : [];
  return { calls, results, messages, loaded };
}
