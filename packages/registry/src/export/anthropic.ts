import type { ToolDeclaration } from '@toolwright/schema';

/** An entry of the Anthropic Messages API's `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; properties: Record<string, unknown>; required: string[]; [keyword: string]: unknown };
}

/** Anthropic `tools`: the parameters schema is the `input_schema`, as it is (full JSON Schema). */
export function toAnthropicTools(declarations: readonly ToolDeclaration[]): AnthropicTool[] {
  return declarations.map((d) => ({ name: d.name, description: d.description, input_schema: { ...d.parameters } }));
}
