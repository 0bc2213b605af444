import picomatch from 'picomatch';
import type { ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import type { OfferedTools } from './offered-tools.js';
import type { ToolCallResult } from './tool-call.js';

/** The tool that finds deferred tools unless told otherwise: `tool_search` of @toolwright/core-tools (`registerMetaTools`). */
export const DEFAULT_SEARCH_TOOL = 'tool_search';

export interface DeferredToolSetOptions {
  /**
   * The tools to defer besides those declared `defer: true`: globs of wire names (`github_*`, `{jira,linear}_*`), or a
   * predicate of the declaration. The search tool itself is never deferred.
   */
  defer?: readonly string[] | ((declaration: ToolDeclaration) => boolean);
  /** Whether tools declared `defer: true` (`@defer`) are deferred (default true). */
  declared?: boolean;
  /** The tool that finds deferred tools (default `tool_search`); it must be registered once any tool is deferred. */
  searchTool?: string;
  /** The names a completed call of the search tool found, from its output (default: `output.tools[].name`, as `tool_search` answers). */
  foundIn?: (output: unknown) => readonly string[];
}

/** A glob of wire names: the characters of a name and the glob characters, as policy rules take them. */
const NAME_GLOB = /^[A-Za-z0-9_*?{},\-[\]!.]+$/;

/**
 * The tools of one conversation (or one MCP session) under deferred loading. A deferred tool — declared `defer: true`,
 * or chosen by the host's globs or predicate — is not sent to the model until the search tool (`tool_search`) finds it;
 * then it is loaded, and sent from the next turn on. `declarations()` is what to send on a turn: every tool that is not
 * deferred, the deferred tools loaded so far, and the search tool while any tool is deferred; `loadFound(results)`
 * loads what a turn's searches found (`runToolTurn` calls it). As `CallContext.offeredTools` it holds the executor to
 * what the model was offered: a deferred tool not loaded yet is refused with `tool_not_loaded`, which tells the model
 * to search for it first. Deferral is about what the model reads, not a permission: policy and approval still decide.
 */
export class DeferredToolSet implements OfferedTools {
  readonly searchTool: string;
  private readonly loadedNames = new Set<string>();
  private readonly chosen: (declaration: ToolDeclaration) => boolean;
  private readonly declared: boolean;
  private readonly foundIn: (output: unknown) => readonly string[];

  constructor(
    private readonly registry: ToolRegistry,
    options: DeferredToolSetOptions = {},
  ) {
    const searchTool = options.searchTool ?? DEFAULT_SEARCH_TOOL;
    if (typeof searchTool !== 'string' || searchTool === '') throw new TypeError('DeferredToolSet: searchTool must be a tool name');
    this.searchTool = searchTool;
    this.chosen = chooserOf(options.defer);
    this.declared = options.declared ?? true;
    this.foundIn = options.foundIn ?? namesOfToolSearch;
  }

  /** Whether the registered tool `name` is deferred (loaded or not); the search tool never is. */
  isDeferred(name: string): boolean {
    if (name === this.searchTool) return false;
    const declaration = this.registry.get(name)?.declaration;
    return declaration !== undefined && ((this.declared && declaration.metadata.defer === true) || this.chosen(declaration));
  }

  /** The deferred tools loaded so far, in the order they were loaded. */
  get loaded(): readonly string[] {
    return [...this.loadedNames];
  }

  offers(name: string): boolean {
    if (!this.registry.has(name)) return false;
    if (name === this.searchTool) return this.registry.names().some((other) => this.isDeferred(other));
    return this.loadedNames.has(name) || !this.isDeferred(name);
  }

  defers(name: string): boolean {
    return !this.loadedNames.has(name) && this.isDeferred(name);
  }

  /**
   * The declarations to send on the next turn, sorted by name as the registry lists them. They carry no `defer`
   * setting: the deferral is done here, and a provider told `defer_loading` would hide a tool this set has loaded.
   * Throws a `TypeError` when tools are deferred and the search tool that finds them is not registered.
   */
  declarations(): ToolDeclaration[] {
    const deferred = new Set(this.registry.names().filter((name) => this.isDeferred(name)));
    if (deferred.size > 0 && !this.registry.has(this.searchTool)) {
      const some = [...deferred].slice(0, 3).join(', ');
      throw new TypeError(
        `DeferredToolSet: ${deferred.size} tool${deferred.size === 1 ? ' is' : 's are'} deferred (${some}${deferred.size > 3 ? ', ...' : ''}), ` +
          `but no '${this.searchTool}' tool is registered to find them: register it (registerMetaTools(registry) of @toolwright/core-tools)`,
      );
    }
    return this.registry
      .list()
      .filter((d) => (d.name === this.searchTool ? deferred.size > 0 : !deferred.has(d.name) || this.loadedNames.has(d.name)))
      .map(withoutDefer);
  }

  /** Loads deferred tools by name (a tool that is not deferred, or loaded already, is left as it is); returns those newly loaded. */
  load(names: Iterable<string>): string[] {
    const wanted = [...names];
    const unknown = wanted.filter((name) => !this.registry.has(name));
    if (unknown.length > 0) throw new TypeError(`DeferredToolSet.load: no tool named ${unknown.map((name) => `'${name}'`).join(', ')} is registered`);
    return this.loadNow(wanted);
  }

  /**
   * Loads the deferred tools that the completed calls of the search tool among `results` found; returns those newly
   * loaded (empty when nothing changed, so a host knows whether its tool list did).
   */
  loadFound(results: readonly ToolCallResult[]): string[] {
    const found = results.flatMap((result) => (result.tool === this.searchTool && result.status === 'completed' ? this.foundIn(result.output) : []));
    return this.loadNow(found.filter((name) => typeof name === 'string' && this.registry.has(name)));
  }

  private loadNow(names: readonly string[]): string[] {
    const added: string[] = [];
    for (const name of names) {
      if (this.loadedNames.has(name) || !this.isDeferred(name)) continue;
      this.loadedNames.add(name);
      added.push(name);
    }
    return added;
  }
}

/** The host's choice of tools to defer, checked: globs of names, or a predicate. */
function chooserOf(defer: DeferredToolSetOptions['defer']): (declaration: ToolDeclaration) => boolean {
  if (defer === undefined) return () => false;
  if (typeof defer === 'function') return defer;
  if (!Array.isArray(defer)) throw new TypeError('DeferredToolSet: defer must be a list of globs of tool names, or a predicate');
  const globs: string[] = [];
  for (const glob of defer as readonly unknown[]) {
    if (typeof glob !== 'string' || !NAME_GLOB.test(glob))
      throw new TypeError(
        `DeferredToolSet: ${JSON.stringify(glob)} is not a glob of tool names (letters, digits, _, -, . and the glob characters * ? {} [] !)`,
      );
    globs.push(glob);
  }
  if (globs.length === 0) return () => false;
  const matches = picomatch(globs);
  return (declaration) => matches(declaration.name);
}

/** `tool_search`'s answer (`{ query, tools: [{ name, description, parameters }] }`): the names it found. */
function namesOfToolSearch(output: unknown): string[] {
  const tools = (output as { tools?: unknown } | null | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const name = (tool as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}

function withoutDefer(declaration: ToolDeclaration): ToolDeclaration {
  if (declaration.metadata.defer === undefined) return declaration;
  const { defer: _defer, ...metadata } = declaration.metadata;
  return { ...declaration, metadata };
}
