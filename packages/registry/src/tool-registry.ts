import { getToolDeclaration, type SafetyTier, type ToolDeclaration, type ToolGroup } from '@toolwright/schema';
import { fromFunction, lazyTool, type RegisteredTool } from './registered-tool.js';
import { RegistryError } from './registry-error.js';

export interface ToolFilter {
  groups?: readonly ToolGroup[];
  tiers?: readonly SafetyTier[];
  /** Tools that carry every one of these tags. */
  tags?: readonly string[];
  names?: readonly string[];
}

export type RegistryChange = { type: 'added' | 'removed'; name: string };

type AnyFunction = (...args: unknown[]) => unknown;
const TOOL_OPTIONS = Symbol.for('toolwright.options');

/**
 * The tools available to an executor, by wire name. Tools come from their generated declarations:
 * a function, every tool export of a module, the methods of a toolkit instance, or a lazy loader.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<(change: RegistryChange) => void>();

  /** Registers a function that carries a declaration (from the transformer or a generated module). */
  register(fn: Function): RegisteredTool {
    const declaration = requireDeclaration(fn, fn.name || 'anonymous function');
    return this.add(fromFunction(declaration, fn as AnyFunction));
  }

  /** Registers every export of a module that is a tool function; returns them. Non-tools are skipped. */
  registerModule(moduleExports: Record<string, unknown>): RegisteredTool[] {
    const added: RegisteredTool[] = [];
    for (const value of Object.values(moduleExports)) {
      if (typeof value === 'function' && getToolDeclaration(value)) added.push(this.register(value));
    }
    return added;
  }

  /** Registers the `@tool()` methods of a toolkit instance, bound to it (its whole prototype chain). */
  registerToolkit(instance: object): RegisteredTool[] {
    const added: RegisteredTool[] = [];
    const seen = new Set<string>();
    for (let proto = Object.getPrototypeOf(instance); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key === 'constructor' || seen.has(key)) continue;
        const method = Object.getOwnPropertyDescriptor(proto, key)?.value;
        if (typeof method !== 'function' || !(TOOL_OPTIONS in method || getToolDeclaration(method))) continue;
        seen.add(key);
        const declaration = requireDeclaration(method, `${instance.constructor.name}.${key}`);
        added.push(this.add(fromFunction(declaration, method as AnyFunction, instance)));
      }
    }
    if (added.length === 0) {
      throw new RegistryError('not_a_tool', `${instance.constructor.name} has no @tool() methods; decorate its methods with @tool() and compile with the Toolwright transformer.`);
    }
    return added;
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
      throw new RegistryError('duplicate_tool', `A tool named '${name}' is already registered${other ? ` (from ${other.file}:${other.line})` : ''}; wire names must be unique.`, name);
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

  /** Subscribes to additions and removals; returns the unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: RegistryChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

function requireDeclaration(fn: Function, label: string): ToolDeclaration {
  const declaration = getToolDeclaration(fn);
  if (declaration) return declaration;
  if (TOOL_OPTIONS in fn) {
    throw new RegistryError('missing_declaration', `${label} is marked as a tool but carries no declaration: compile it with the Toolwright transformer (tspc) or import the module written by \`toolwright emit --module\` first.`);
  }
  throw new RegistryError('not_a_tool', `${label} is not a tool: wrap it with tool(...) or mark it with @tool.`);
}
