import { getToolDeclaration, type SafetyTier, type ToolDeclaration, type ToolGroup } from '@toolwright/schema';
import { fromFunction, lazyTool, type RegisteredTool } from './registered-tool.js';
import { RegistryError } from './registry-error.js';
import { requireDeclaration } from './require-declaration.js';
import { SessionToolkit, type SessionToolkitOptions } from './session-toolkit.js';
import { toolkitMethods } from './toolkit-methods.js';
import { checkSearchIndexData, ToolSearchIndex, type SearchIndexData, type ToolSearchMatch, type ToolSearchOptions } from './search/tool-search-index.js';

export interface ToolFilter {
  groups?: readonly ToolGroup[];
  tiers?: readonly SafetyTier[];
  /** Tools that carry every one of these tags. */
  tags?: readonly string[];
  names?: readonly string[];
}

export type RegistryChange = { type: 'added' | 'removed'; name: string };

/** Any function, whatever its parameters: what `register` accepts. */
type Callable = (...args: never[]) => unknown;

/**
 * The tools available to an executor, by wire name. Tools come from their generated declarations:
 * a function, every tool export of a module, the methods of a toolkit instance, or a lazy loader.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  /** Built on the first search, dropped whenever a tool is added or removed. */
  private searchIndex: ToolSearchIndex | undefined;
  /** An index built ahead of time (`useSearchIndex`), loaded on a search while the tools are the ones it was built from. */
  private prebuiltIndex: SearchIndexData | undefined;

  /** Registers a function that carries a declaration (from the transformer or a generated module). */
  register(fn: Callable): RegisteredTool {
    const declaration = requireDeclaration(fn, fn.name || 'anonymous function');
    return this.add(fromFunction(declaration, fn));
  }

  /** Registers every export of a module that is a tool function; returns them. Non-tools are skipped. */
  registerModule(moduleExports: Record<string, unknown>): RegisteredTool[] {
    const added: RegisteredTool[] = [];
    for (const value of Object.values(moduleExports)) {
      if (typeof value === 'function' && getToolDeclaration(value)) added.push(this.register(value as Callable));
    }
    return added;
  }

  /** Registers the `@tool()` methods of a toolkit instance, bound to it (its whole prototype chain). */
  registerToolkit(instance: object): RegisteredTool[] {
    const methods = toolkitMethods(Object.getPrototypeOf(instance) as object, instance.constructor.name);
    if (methods.length === 0) throw noToolMethods(instance.constructor.name);
    return methods.map(({ method, declaration }) => this.add(fromFunction(declaration, method, instance)));
  }

  /**
   * Registers the `@tool()` methods of a toolkit class with one instance per session (see
   * `SessionToolkit`); returns the toolkit, whose `endSession` forgets a closed session's instance.
   */
  registerSessionToolkit<T extends object>(toolkit: new () => T, options?: SessionToolkitOptions<T>): SessionToolkit<T> {
    const kit = new SessionToolkit(toolkit, options);
    if (kit.tools.length === 0) throw noToolMethods(toolkit.name);
    for (const tool of kit.tools) this.add(tool);
    return kit;
  }

  /** Registers a tool whose implementation loads on first call; listing and export never load it. */
  registerLazy(declaration: ToolDeclaration, load: Parameters<typeof lazyTool>[1]): RegisteredTool {
    return this.add(lazyTool(declaration, load));
  }

  /** Registers an already adapted tool (MCP imports, tests). */
  add(tool: RegisteredTool): RegisteredTool {
    const { name } = tool.declaration;
    if (this.tools.has(name)) {
      const other = this.tools.get(name)!.declaration.source;
      throw new RegistryError(
        'duplicate_tool',
        `A tool named '${name}' is already registered${other ? ` (from ${other.file}:${other.line})` : ''}; wire names must be unique.`,
        name,
      );
    }
    this.tools.set(name, tool);
    this.emit({ type: 'added', name });
    return tool;
  }

  unregister(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.emit({ type: 'removed', name });
    return removed;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get size(): number {
    return this.tools.size;
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** Declarations sorted by name, optionally filtered by group, tier, tags or names. */
  list(filter: ToolFilter = {}): ToolDeclaration[] {
    return this.names()
      .map((name) => this.tools.get(name)!.declaration)
      .filter((d) => !filter.groups || (d.metadata.group !== undefined && filter.groups.includes(d.metadata.group)))
      .filter((d) => !filter.tiers || filter.tiers.includes(d.metadata.tier))
      .filter((d) => !filter.tags || filter.tags.every((tag) => d.metadata.tags.includes(tag)))
      .filter((d) => !filter.names || filter.names.includes(d.name));
  }

  /**
   * The tools that best match `query`, best first (BM25 over each tool's name split into words, description,
   * parameter names and descriptions, tags and group). A query of only stop words or symbols matches nothing; an
   * empty query, one longer than 1,000 characters or a `limit` outside 1..100 is a `RegistryError` (`invalid_query`).
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchMatch[] {
    this.searchIndex ??= new ToolSearchIndex(new Map([...this.tools].map(([name, tool]) => [name, tool.declaration])), this.prebuiltIndex);
    return this.searchIndex.search(query, options);
  }

  /**
   * Searches with an index built ahead of time (`toolwright emit --search-index`) instead of building one on the first
   * search: its entries of tools registered with the same searched text are kept, the rest dropped, and the tools it
   * lacks indexed (when little of it holds, the index is built afresh). Data that is not such an index is a
   * `RegistryError` (`invalid_search_index`).
   */
  useSearchIndex(data: unknown): void {
    this.prebuiltIndex = checkSearchIndexData(data);
    this.searchIndex = undefined;
  }

  /** Whether the current search index was loaded from `useSearchIndex`'s data (`true`) or built (`false`); none yet: undefined. */
  get searchIndexLoaded(): boolean | undefined {
    return this.searchIndex?.prebuilt;
  }

  /** Subscribes to additions and removals; returns the unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: RegistryChange): void {
    this.searchIndex = undefined;
    for (const listener of this.listeners) listener(change);
  }
}

function noToolMethods(className: string): RegistryError {
  return new RegistryError('not_a_tool', `${className} has no @tool() methods; decorate its methods with @tool() and compile with the Toolwright transformer.`);
}
