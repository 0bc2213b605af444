/** Names every provider accepts for a function (OpenAI, Anthropic, Gemini, MCP). */
export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The default wire name of a tool: the snake_case of its function name.
 * @example toSnakeCase('readFile') === 'read_file'; toSnakeCase('fetchHTMLPage') === 'fetch_html_page'
 */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s.-]+/g, '_')
    .toLowerCase();
}
