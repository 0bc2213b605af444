export { toOpenAIChatTools, toOpenAIResponsesTools } from './openai.js';
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIExportOptions } from './openai.js';
export { lowerForOpenAIStrict, decodeOpenAIStrictArguments } from './openai-strict.js';
export { toAnthropicTools } from './anthropic.js';
export type { AnthropicTool } from './anthropic.js';
export { toGeminiFunctionDeclarations, lowerForGemini } from './gemini.js';
export type { GeminiFunctionDeclaration, GeminiSchema, GeminiTypeName, GeminiTypes } from './gemini.js';
export { structuredContentOf, toMcpTools } from './mcp.js';
export type { McpEraOptions, McpModernTool, McpTool } from './mcp.js';
