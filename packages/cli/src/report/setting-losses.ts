import type { ToolDeclaration } from '@toolwright/schema';
import { MCP_META_KEYS } from '@toolwright/registry';
import type { Loss } from './lowering-losses.js';

/** The per-tool settings a dialect may have no field for (strict is the host's to ask for, so it is never lost). */
export type ToolSetting = 'defer' | 'examples' | 'callers';

/** Where each dialect's entry carries a setting: Anthropic's and Responses' fields, a Chat Completions `function`'s, MCP's `_meta`. */
const CARRIERS: Record<ToolSetting, readonly (readonly string[])[]> = {
  defer: [['defer_loading'], ['function', 'defer_loading'], ['_meta', MCP_META_KEYS.defer]],
  examples: [['input_examples'], ['function', 'input_examples'], ['_meta', MCP_META_KEYS.examples]],
  callers: [['allowed_callers'], ['function', 'allowed_callers'], ['_meta', MCP_META_KEYS.callers]],
};

/**
 * The settings a tool declares (`defer`, `examples`, `callers`) that its entry in a dialect does not carry, found by
 * looking for them in the entry itself (so it stays true when an exporter learns a field): Gemini has none of them,
 * Chat Completions none (the Responses API takes `defer` and `callers`, `toOpenAIResponsesTools` sends them).
 */
export function settingLosses(declaration: ToolDeclaration, entry: unknown): Loss[] {
  const { metadata } = declaration;
  const declared: Record<ToolSetting, boolean> = {
    defer: metadata.defer === true,
    examples: (metadata.examples?.length ?? 0) > 0,
    callers: metadata.callers !== undefined,
  };
  return (Object.keys(CARRIERS) as ToolSetting[])
    .filter((setting) => declared[setting] && !CARRIERS[setting].some((path) => valueAt(entry, path) !== undefined))
    .map((setting) => ({ path: '(tool)', kind: 'setting', keyword: setting, described: false, revalidated: false }));
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
