import { ToolRegistry } from '@toolwright/registry';
import { getToolDeclaration } from '@toolwright/schema';
import { compileProject, requireCompiled } from './compile-project.js';
import { loadProject } from './load-project.js';

export interface LoadedTools {
  registry: ToolRegistry;
  /** Toolkit classes that were skipped because their constructor needs arguments. */
  skipped: string[];
}

/**
 * Builds a registry from a project's tools: tool functions are registered as they are; `@tool()`
 * classes are instantiated when their constructor takes no arguments (others need the host program
 * to construct them and are listed in `skipped`).
 */
export function loadProjectTools(projectPath: string, registry = new ToolRegistry()): LoadedTools {
  const project = loadProject(projectPath);
  const compiled = compileProject(project);
  const skipped: string[] = [];
  for (const file of compiled.toolModules) {
    const exports = requireCompiled(file);
    registry.registerModule(exports);
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function' || getToolDeclaration(value) || !hasToolMethods(value)) continue;
      if (value.length > 0) skipped.push(name);
      else registry.registerToolkit(new (value as new () => object)());
    }
  }
  return { registry, skipped };
}

function hasToolMethods(value: Function): boolean {
  const proto = (value as { prototype?: object }).prototype;
  if (!proto) return false;
  return Object.getOwnPropertyNames(proto).some((key) => key !== 'constructor' && getToolDeclaration(Object.getOwnPropertyDescriptor(proto, key)?.value));
}
