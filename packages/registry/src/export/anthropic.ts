import type { JsonValue, ToolDeclaration } from '@toolwright/schema';
import { anthropicStrictObstacle } from './anthropic-strict.js';

/** The code execution tool whose code may call a tool that declares `programmatic` callers. */
export type AnthropicCodeExecution = 'code_execution_20250825' | 'code_execution_20260120' | 'code_execution_20260521';

/** An entry of the Anthropic Messages API's `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; properties: Record<string, unknown>; required: string[]; [keyword: string]: unknown };
  strict?: boolean;
  defer_loading?: boolean;
  input_examples?: Record<string, JsonValue>[];
  allowed_callers?: ('direct' | AnthropicCodeExecution)[];
}

/** Anthropic's own tool search (a server tool), which finds the tools sent with `defer_loading` and loads them. */
export type AnthropicToolSearchTool =
  { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' } | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

export interface AnthropicExportOptions {
  /**
   * Strict tool use: `strict: true` on every tool whose schema is in the dialect's subset
   * (`anthropicStrictObstacle`) and that does not say `strict: false`. The schema is sent as it is either way.
   */
  strict?: boolean;
  /** The code execution tool the request carries, which `programmatic` callers become (default `code_execution_20250825`). */
  codeExecution?: AnthropicCodeExecution;
  /**
   * The tool search sent when a tool is deferred (`defer`): Anthropic's BM25 variant (the default, natural-language
   * queries), its regex variant, or `false` when the request carries a search tool of its own — the API refuses
   * deferred tools with no search tool to find them.
   */
  toolSearch?: 'bm25' | 'regex' | false;
}

/**
 * Anthropic `tools`: the parameters schema is the `input_schema`, as it is (full JSON Schema); a tool's `defer`,
 * `examples` and `callers` are sent as `defer_loading`, `input_examples` and `allowed_callers`. When a tool is
 * deferred, Anthropic's tool search follows the tools (`toolSearch`), which finds and loads them.
 */
export function toAnthropicTools(declarations: readonly ToolDeclaration[], options: AnthropicExportOptions = {}): (AnthropicTool | AnthropicToolSearchTool)[] {
  const tools: (AnthropicTool | AnthropicToolSearchTool)[] = toAnthropicFunctionTools(declarations, options);
  const search = options.toolSearch ?? 'bm25';
  if (search !== false && declarations.some((d) => d.metadata.defer)) tools.push(anthropicToolSearch(search));
  return tools;
}

/** Anthropic's tool search tool of one variant. */
function anthropicToolSearch(variant: 'bm25' | 'regex'): AnthropicToolSearchTool {
  return variant === 'bm25'
    ? { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }
    : { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
}

/** The declarations' entries alone, one per tool in order (what `toAnthropicTools` sends before any tool search). */
function toAnthropicFunctionTools(declarations: readonly ToolDeclaration[], options: AnthropicExportOptions = {}): AnthropicTool[] {
  const programmatic = options.codeExecution ?? 'code_execution_20250825';
  return declarations.map((d) => {
    const { metadata } = d;
    const strict = options.strict === true && metadata.strict !== false && anthropicStrictObstacle(d.parameters) === undefined;
    return {
      name: d.name,
      description: d.description,
      input_schema: { ...d.parameters },
      ...(strict ? { strict: true } : {}),
      ...(metadata.defer ? { defer_loading: true } : {}),
      ...(metadata.examples ? { input_examples: metadata.examples.map((example) => ({ ...example })) } : {}),
      ...(metadata.callers ? { allowed_callers: metadata.callers.map((caller) => (caller === 'direct' ? 'direct' : programmatic)) } : {}),
    };
  });
}
