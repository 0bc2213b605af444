// The plain-loop helpers accept the real SDKs' response types as they are.
import { expectAssignable, expectType } from 'tsd';
import type { ChatCompletion, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { Response, ResponseInputItem } from 'openai/resources/responses/responses';
import type { Message, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Content, GenerateContentResponse } from '@google/genai';
import {
  runToolTurn,
  type AnthropicMessageLike,
  type GeminiResponseLike,
  type OpenAIChatCompletionLike,
  type OpenAIResponseLike,
  type ToolExecutor,
} from '@toolwright/executor';

declare const executor: ToolExecutor;
declare const chat: ChatCompletion;
declare const response: Response;
declare const message: Message;
declare const gemini: GenerateContentResponse;

expectAssignable<OpenAIChatCompletionLike>(chat);
expectAssignable<OpenAIResponseLike>(response);
expectAssignable<AnthropicMessageLike>(message);
expectAssignable<GeminiResponseLike>(gemini);

// ...and their messages go back into the SDKs' request types.
export async function roundTrip(): Promise<void> {
  const chatTurn = await runToolTurn(executor, { format: 'openai-chat', response: chat });
  expectAssignable<ChatCompletionToolMessageParam[]>(chatTurn.messages);
  const responsesTurn = await runToolTurn(executor, { format: 'openai-responses', response });
  expectAssignable<ResponseInputItem[]>(responsesTurn.messages);
  const anthropicTurn = await runToolTurn(executor, { format: 'anthropic', response: message });
  expectAssignable<MessageParam[]>(anthropicTurn.messages);
  const geminiTurn = await runToolTurn(executor, { format: 'gemini', response: gemini });
  expectAssignable<Content[]>(geminiTurn.messages);
  // Chat Completions send text; Anthropic and Gemini send parsed values, passed on as they are.
  expectType<string | Readonly<Record<string, unknown>>>(chatTurn.calls[0]!.arguments);
}
