import { type SessionToolkit, ToolRegistry } from '@toolwright/registry';
import { getToolDeclaration } from '@toolwright/schema';
import path from 'node:path';
import { loadCompiled } from './compiled-modules.js';
import { requireCompilerApi } from './compiler-api.js';
import { configPathOf, freshBuild, type ProjectBuild } from './project-build-cache.js';
import { preloadTypeScript } from './typescript-code-cache.js';

export interface LoadedTools {
  registry: ToolRegistry;
  /** Export names of every toolkit class found (registered or skipped). */
  toolkits: string[];
  /** Toolkit classes that were skipped because their constructor needs arguments. */
  skipped: string[];
  /** The toolkits registered with one instance per session (`perSession`). */
  sessionToolkits: SessionToolkit[];
}

/**
 * Builds a registry from a project's tools: tool functions are registered as they are; `@tool()`
 * classes are instantiated when their constructor takes no arguments (others need the host program
 * to construct them and are listed in `skipped`): once for the process, or once per session for the
 * export names in `perSession`. The project is compiled only when something its last build read has changed
 * (`freshBuild`): otherwise that build is loaded with no compiler at all. `onCompile` hears why it is compiled.
 */
export async function loadProjectTools(
  projectPath: string,
  registry = new ToolRegistry(),
  perSession: ReadonlySet<string> = new Set(),
  onCompile?: (why: string) => void,
): Promise<LoadedTools> {
  const fresh = freshBuild(configPathOf(projectPath));
  let build: ProjectBuild;
  if ('build' in fresh) build = fresh.build;
  else {
    onCompile?.(fresh.stale);
    preloadTypeScript();
    requireCompilerApi('loading the tools of --project');
    const [{ loadProject }, { compileProject }] = await Promise.all([import('./load-project.js'), import('./compile-project.js')]);
    build = compileProject(loadProject(projectPath, process.cwd(), 'loading the tools of --project'));
  }
  const modules: Record<string, unknown>[] = [];
  for (const [index, file] of build.toolModules.entries())
    modules.push(await loadCompiled(file, build.format, path.relative(process.cwd(), build.sources[index]!) || build.sources[index]!));
  return registerToolModules(modules, registry, perSession);
}

/** Registers the tools of loaded modules: their functions, and their toolkit classes (see `loadProjectTools`). */
export function registerToolModules(modules: readonly Record<string, unknown>[], registry: ToolRegistry, perSession: ReadonlySet<string>): LoadedTools {
  const toolkits: string[] = [];
  const skipped: string[] = [];
  const sessionToolkits: SessionToolkit[] = [];
  for (const exports of modules) {
    registry.registerModule(exports);
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function' || getToolDeclaration(value) || !hasToolMethods(value)) continue;
      toolkits.push(name);
      const toolkit = value as new () => object;
      if (value.length > 0) skipped.push(name);
      else if (perSession.has(name)) sessionToolkits.push(registry.registerSessionToolkit(toolkit));
      else registry.registerToolkit(new toolkit());
    }
  }
  return { registry, toolkits, skipped, sessionToolkits };
}

function hasToolMethods(value: object): boolean {
  const proto = (value as { prototype?: object }).prototype;
  if (!proto) return false;
  return Object.getOwnPropertyNames(proto).some((key) => key !== 'constructor' && getToolDeclaration(Object.getOwnPropertyDescriptor(proto, key)?.value));
}
