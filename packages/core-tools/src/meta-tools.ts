import type { RegisteredTool, ToolRegistry } from '@toolwright/registry';
import { ToolSearchTool } from './tools/tool-search.js';

/**
 * The meta toolkit classes (group `meta`): tools about the other tools. They are bound to a registry, not to a
 * workspace, and are not among `registerCoreTools`' tools: a host adds them when its tool set is large.
 */
export const META_TOOLKITS = [ToolSearchTool] as const;

/** The meta toolkits bound to `registry`, the tools they search. */
export function createMetaTools(registry: ToolRegistry): object[] {
  return META_TOOLKITS.map((Toolkit) => new Toolkit(registry));
}

/** Registers the meta tools in the registry they describe; returns what was added. */
export function registerMetaTools(registry: ToolRegistry): RegisteredTool[] {
  return createMetaTools(registry).flatMap((toolkit) => registry.registerToolkit(toolkit));
}
