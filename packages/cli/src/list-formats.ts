/** The formats of `toolwright list --format`. */
export const LIST_FORMATS = ['json', 'openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];
