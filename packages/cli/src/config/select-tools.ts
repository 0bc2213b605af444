import picomatch from 'picomatch';
import type { ToolRegistry } from '@toolwright/registry';
import type { ToolsSection } from './toolwright-config.js';

/**
 * Leaves in the registry only the tools `include` matches (all when it is absent) and `exclude`
 * does not; the globs match whole tool names (`file_*`, `web_{fetch,search}`). Returns the names removed.
 */
export function selectTools(registry: ToolRegistry, tools: Pick<ToolsSection, 'include' | 'exclude'>): string[] {
  const included = tools.include ? picomatch(tools.include) : () => true;
  const excluded = tools.exclude && tools.exclude.length > 0 ? picomatch(tools.exclude) : () => false;
  const removed = registry.names().filter((name) => !included(name) || excluded(name));
  for (const name of removed) registry.unregister(name);
  return removed;
}
