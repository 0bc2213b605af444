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

export interface AnthropicExportOptions {
  /**
   * Strict tool use: `strict: true` on every tool whose schema is in the dialect's subset
   * (`anthropicStrictObstacle`) and that does not say `strict: false`. The schema is sent as it is either way.
   */
  strict?: boolean;
  /** The code execution tool the request carries, which `programmatic` callers become (default `code_execution_20250825`). */
  codeExecution?: AnthropicCodeExecution;
}

/**
 * Anthropic `tools`: the parameters schema is the `input_schema`, as it is (full JSON Schema); a tool's `defer`,
 * `examples` and `callers` are sent as `defer_loading`, `input_examples` and `allowed_callers`.
 */
export function toAnthropicTools(declarations: readonly ToolDeclaration[], options: AnthropicExportOptions = {}): AnthropicTool[] {
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
