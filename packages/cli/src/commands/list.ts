import type { ToolRegistry } from '@toolwright/registry';
import { toAnthropicTools, toGeminiFunctionDeclarations, toMcpTools, toOpenAIChatTools, toOpenAIResponsesTools } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

import { LIST_FORMATS, type ListFormat } from '../list-formats.js';

/** `toolwright list`: the registered tools' declarations, as they are or in a provider's format. */
export function listTools(registry: ToolRegistry, format: string): unknown {
  if (!(LIST_FORMATS as readonly string[]).includes(format)) throw new CliError(`Unknown --format '${format}'. Use one of: ${LIST_FORMATS.join(', ')}.`, 2);
  const declarations = registry.list();
  switch (format as ListFormat) {
    case 'json':
      return declarations;
    case 'openai':
      return toOpenAIChatTools(declarations);
    case 'openai-strict':
      return toOpenAIChatTools(declarations, { strict: true });
    case 'openai-responses':
      return toOpenAIResponsesTools(declarations, { strict: true });
    case 'anthropic':
      return toAnthropicTools(declarations);
    case 'gemini':
      return { functionDeclarations: toGeminiFunctionDeclarations(declarations) };
    case 'mcp':
      return { tools: toMcpTools(declarations) };
  }
}
