export { ToolRegistry } from './tool-registry.js';
export type { ToolFilter, RegistryChange } from './tool-registry.js';
export { fromFunction, lazyTool, renderedAs, withModelRendering } from './registered-tool.js';
export { SessionToolkit } from './session-toolkit.js';
export type { SessionToolkitOptions } from './session-toolkit.js';
export type { RegisteredTool, RenderedAsDecorator } from './registered-tool.js';
export type { ToolSearchMatch, ToolSearchOptions, SearchIndexData } from './search/tool-search-index.js';
export { MAX_QUERY_LENGTH, buildSearchIndex } from './search/tool-search-index.js';
export { RegistryError } from './registry-error.js';
export type { RegistryErrorCode } from './registry-error.js';
export {
  toOpenAIChatTools,
  toOpenAIResponsesTools,
  lowerForOpenAIStrict,
  decodeOpenAIStrictArguments,
  decodeOpenAIStrictCall,
  toAnthropicTools,
  anthropicStrictObstacle,
  toGeminiFunctionDeclarations,
  lowerForGemini,
  structuredContentOf,
  toMcpTools,
  MCP_META_KEYS,
} from './export/index.js';
export type {
  OpenAIChatTool,
  OpenAIResponsesTool,
  OpenAIExportOptions,
  OpenAIResponsesExportOptions,
  OpenAIToolSearchTool,
  AnthropicTool,
  AnthropicExportOptions,
  AnthropicCodeExecution,
  AnthropicToolSearchTool,
  GeminiFunctionDeclaration,
  GeminiSchema,
  GeminiTypeName,
  GeminiTypes,
  McpEraOptions,
  McpModernTool,
  McpTool,
} from './export/index.js';
