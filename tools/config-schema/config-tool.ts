import type { ToolwrightConfig } from '../../packages/cli/src/config/toolwright-config.js';

/**
 * The transformer maps parameter types to JSON Schema; this tool's one parameter is the config
 * file's type, so its schema is the config file's schema.
 * @tool
 */
export async function toolwright_config(config: ToolwrightConfig): Promise<void> {
  void config;
}
