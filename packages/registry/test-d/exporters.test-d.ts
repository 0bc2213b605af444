// Each provider exporter's output is assignable to the real SDK's type (dev dependencies only).
import { expectAssignable } from 'tsd';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Tool as ResponsesTool } from 'openai/resources/responses/responses';
// The SDKs' unions of tools: a deferred tool brings the provider's own tool search along.
import type { ToolUnion as AnthropicSdkTool } from '@anthropic-ai/sdk/resources/messages';
import { Type, type FunctionDeclaration } from '@google/genai';
import type { Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDeclaration } from '@toolwright/schema';
import {
  toOpenAIChatTools,
  toOpenAIResponsesTools,
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toMcpTools,
  decodeOpenAIStrictArguments,
  decodeOpenAIStrictCall,
  type GeminiFunctionDeclaration,
} from '@toolwright/registry';

declare const declarations: ToolDeclaration[];

const chat: ChatCompletionTool[] = toOpenAIChatTools(declarations);
const chatStrict: ChatCompletionTool[] = toOpenAIChatTools(declarations, { strict: true });
const responses: ResponsesTool[] = toOpenAIResponsesTools(declarations, { strict: true });
const responsesRegex: AnthropicSdkTool[] = toAnthropicTools(declarations, { toolSearch: 'regex' });
const anthropic: AnthropicSdkTool[] = toAnthropicTools(declarations);
const anthropicStrict: AnthropicSdkTool[] = toAnthropicTools(declarations, { strict: true, codeExecution: 'code_execution_20260120' });
const mcp: McpSdkTool[] = toMcpTools(declarations);
// Gemini's Schema types `type` with the SDK's `Type` enum: pass it, and the output is typed with it.
const gemini: FunctionDeclaration[] = toGeminiFunctionDeclarations(declarations, { types: Type });
expectAssignable<GeminiFunctionDeclaration<Type>[]>(toGeminiFunctionDeclarations(declarations, { types: Type }));
expectAssignable<Record<string, unknown>>(decodeOpenAIStrictArguments(declarations[0]!.parameters, {}));
expectAssignable<Record<string, unknown>>(decodeOpenAIStrictCall(declarations[0]!, {}));
void [chat, chatStrict, responses, responsesRegex, anthropic, anthropicStrict, mcp, gemini];
