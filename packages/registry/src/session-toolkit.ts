import { getToolContext } from '@toolwright/tool';
import { fromFunction, type RegisteredTool } from './registered-tool.js';
import { toolkitMethods } from './toolkit-methods.js';

export interface SessionToolkitOptions<T> {
  /** Makes a session's instance (default: `new toolkit()`). */
  create?: () => T;
  /**
   * The session of the call running now (default: `getToolContext()?.sessionId`, which the executor
   * takes from the call's `sessionId`; the MCP server passes the MCP session's id).
   */
  sessionOf?: () => string | undefined;
}

/**
 * A toolkit class whose `@tool()` methods keep state per session (an MCP session, a conversation)
 * rather than per process: each session gets its own instance, made at the session's first call
 * and kept until `endSession`. Calls without a session share one instance (a stdio server serves
 * a single client; `toolwright call` makes one call). Listing and exporting never make an instance.
 */
export class SessionToolkit<T extends object = object> {
  readonly tools: readonly RegisteredTool[];
  private readonly instances = new Map<string | undefined, T>();
  private readonly create: () => T;
  private readonly sessionOf: () => string | undefined;

  constructor(
    readonly toolkit: new () => T,
    options: SessionToolkitOptions<T> = {},
  ) {
    this.create = options.create ?? (() => new toolkit());
    this.sessionOf = options.sessionOf ?? (() => getToolContext()?.sessionId);
    this.tools = toolkitMethods(toolkit.prototype as object, toolkit.name).map(({ key, declaration }) => ({
      declaration,
      invoke: async (args) => {
        const instance = this.instanceFor(this.sessionOf());
        const method = (instance as Record<string, unknown>)[key] as (...values: unknown[]) => unknown;
        return fromFunction(declaration, method, instance).invoke(args);
      },
    }));
  }

  /** The session's instance, made now if it has none (a constructor that throws fails the call, and the next call tries again). */
  instanceFor(sessionId: string | undefined): T {
    let instance = this.instances.get(sessionId);
    if (!instance) {
      instance = this.create();
      this.instances.set(sessionId, instance);
    }
    return instance;
  }

  /**
   * Forgets a closed session's instance, disposing of it first when it is disposable
   * (`[Symbol.asyncDispose]()` or `[Symbol.dispose]()`: close its connections, files, processes).
   * Resolves to whether the session had an instance; rejects with the error its disposal threw.
   */
  async endSession(sessionId: string): Promise<boolean> {
    const instance = this.instances.get(sessionId);
    if (!instance) return false;
    this.instances.delete(sessionId);
    await disposeOf(instance)?.call(instance);
    return true;
  }

  /** Instances alive, one per session that has called one of the toolkit's tools. */
  get sessions(): number {
    return this.instances.size;
  }
}

// The disposal symbols are not in this package's `lib` (es2023); Node has had both since 20.4.
const DISPOSERS = [(Symbol as { asyncDispose?: symbol }).asyncDispose, (Symbol as { dispose?: symbol }).dispose];

function disposeOf(instance: object): (() => unknown) | undefined {
  for (const symbol of DISPOSERS) {
    const method = symbol === undefined ? undefined : (instance as Record<symbol, unknown>)[symbol];
    if (typeof method === 'function') return method as () => unknown;
  }
  return undefined;
}
