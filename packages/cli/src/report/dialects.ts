import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';
import { toAnthropicTools, toGeminiFunctionDeclarations, toMcpTools, toOpenAIChatTools, type AnthropicTool } from '@toolwright/registry';

/** The provider dialects a declaration is lowered to, in the report's column order. */
export const DIALECTS = ['openai', 'openai-strict', 'anthropic', 'gemini', 'mcp'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** A declaration as one dialect sends it: the whole entry (what the request carries) and its parameters schema. */
export interface LoweredDeclaration {
  entry: unknown;
  parameters: JsonSchema;
}

/** Lowers one declaration with the registry's own exporter for the dialect (so the report follows the exporters). */
export function lowerDeclaration(declaration: ToolDeclaration, dialect: Dialect): LoweredDeclaration {
  switch (dialect) {
    case 'openai':
    case 'openai-strict': {
      const [entry] = toOpenAIChatTools([declaration], { strict: dialect === 'openai-strict' });
      return { entry, parameters: entry!.function.parameters };
    }
    case 'anthropic': {
      // The tool's own entry: the tool search a deferred tool brings along is the request's, not the tool's.
      const [entry] = toAnthropicTools([declaration], { toolSearch: false }) as AnthropicTool[];
      return { entry, parameters: entry!.input_schema as JsonSchema };
    }
    case 'gemini': {
      const [entry] = toGeminiFunctionDeclarations([declaration]);
      return { entry, parameters: entry!.parameters as unknown as JsonSchema };
    }
    case 'mcp': {
      const [entry] = toMcpTools([declaration]);
      return { entry, parameters: entry!.inputSchema };
    }
  }
}
