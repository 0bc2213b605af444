import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';
import { lowerForOpenAIStrict } from './openai-strict.js';

/** An entry of Chat Completions' `tools`. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

/** A function tool of the Responses API. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

export interface OpenAIExportOptions {
  /**
   * Strict mode (structured outputs): the schema is lowered to the strict dialect; decode the
   * model's arguments with `decodeOpenAIStrictArguments` (as the executor's `decodeArguments` hook).
   */
  strict?: boolean;
}

/** OpenAI Chat Completions `tools`. */
export function toOpenAIChatTools(declarations: readonly ToolDeclaration[], options: OpenAIExportOptions = {}): OpenAIChatTool[] {
  return declarations.map((d) => ({
    type: 'function',
    function: { name: d.name, description: d.description, parameters: parametersFor(d, options), ...(options.strict ? { strict: true } : {}) },
  }));
}

/** OpenAI Responses API function tools. */
export function toOpenAIResponsesTools(declarations: readonly ToolDeclaration[], options: OpenAIExportOptions = {}): OpenAIResponsesTool[] {
  return declarations.map((d) => ({
    type: 'function',
    name: d.name,
    description: d.description,
    parameters: parametersFor(d, options),
    strict: options.strict === true,
  }));
}

function parametersFor(declaration: ToolDeclaration, options: OpenAIExportOptions): Record<string, unknown> {
  const schema: JsonSchema = options.strict ? lowerForOpenAIStrict(declaration.parameters) : declaration.parameters;
  return schema as Record<string, unknown>;
}
