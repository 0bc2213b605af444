import type { JsonSchema, ToolCaller, ToolDeclaration } from '@toolwright/schema';
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
  /** The tool's definition is loaded when the `tool_search` tool finds it (a tool declared `defer`). */
  defer_loading?: boolean;
  /** Who may call the tool, for a tool that declares `callers` (absent: the model alone). */
  allowed_callers?: ToolCaller[];
}

/** The Responses API's own tool search (run by OpenAI), which finds the tools sent with `defer_loading` and loads them. */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
}

export interface OpenAIExportOptions {
  /**
   * Strict mode (structured outputs): each schema is lowered to the strict dialect; decode the model's arguments
   * with `decodeOpenAIStrictCall` (as the executor's `decodeArguments` hook). A tool that says `strict: false` is
   * sent with its own schema and `strict: false`.
   */
  strict?: boolean;
}

export interface OpenAIResponsesExportOptions extends OpenAIExportOptions {
  /**
   * Whether the Responses API's tool search (`{ type: 'tool_search' }`) follows the tools when one is deferred
   * (default `true`; `false` when the request carries a search tool of its own).
   */
  toolSearch?: boolean;
}

/**
 * OpenAI Chat Completions `tools`. Chat Completions has no deferred loading, input examples or callers: a tool's
 * `defer`, `examples` and `callers` are not sent (`toolwright emit --report` lists them).
 */
export function toOpenAIChatTools(declarations: readonly ToolDeclaration[], options: OpenAIExportOptions = {}): OpenAIChatTool[] {
  return declarations.map((d) => {
    const strict = sentStrict(d, options);
    return {
      type: 'function',
      function: {
        name: d.name,
        description: d.description,
        parameters: parametersFor(d, strict),
        ...(strict ? { strict: true } : options.strict ? { strict: false } : {}),
      },
    };
  });
}

/**
 * OpenAI Responses API function tools, with `defer_loading` and `allowed_callers` from the declaration. When a tool is
 * deferred, the API's tool search follows the tools (`toolSearch`), which finds and loads them.
 */
export function toOpenAIResponsesTools(
  declarations: readonly ToolDeclaration[],
  options: OpenAIResponsesExportOptions = {},
): (OpenAIResponsesTool | OpenAIToolSearchTool)[] {
  const tools: (OpenAIResponsesTool | OpenAIToolSearchTool)[] = responsesFunctionTools(declarations, options);
  if (options.toolSearch !== false && declarations.some((d) => d.metadata.defer)) tools.push({ type: 'tool_search' });
  return tools;
}

function responsesFunctionTools(declarations: readonly ToolDeclaration[], options: OpenAIExportOptions): OpenAIResponsesTool[] {
  return declarations.map((d) => {
    const strict = sentStrict(d, options);
    return {
      type: 'function',
      name: d.name,
      description: d.description,
      parameters: parametersFor(d, strict),
      strict,
      ...(d.metadata.defer ? { defer_loading: true } : {}),
      ...(d.metadata.callers ? { allowed_callers: [...d.metadata.callers] } : {}),
    };
  });
}

/** Strict when the host asks for it and the tool does not say `strict: false` (every schema has a strict lowering). */
function sentStrict(declaration: ToolDeclaration, options: OpenAIExportOptions): boolean {
  return options.strict === true && declaration.metadata.strict !== false;
}

function parametersFor(declaration: ToolDeclaration, strict: boolean): Record<string, unknown> {
  const schema: JsonSchema = strict ? lowerForOpenAIStrict(declaration.parameters) : declaration.parameters;
  return schema as Record<string, unknown>;
}
