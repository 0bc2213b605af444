import type { ToolDeclaration } from '@toolwright/schema';

/** A tool the registry can run: its declaration and a way to call it with a validated argument object. */
export interface RegisteredTool {
  readonly declaration: ToolDeclaration;
  /**
   * Calls the implementation. `args` must already be validated against `declaration.parameters`;
   * they are spread into the function's positional parameters in `declaration.parameterOrder`, or,
   * for a flattened tool (`argumentPassing: 'object'`), passed as one object holding them.
   */
  invoke(args: Readonly<Record<string, unknown>>): Promise<unknown>;
  /**
   * The text the model reads for a successful output (numbered lines, an exit code and output
   * blocks, one line per match), when it should differ from the output's JSON. Hosts still get the
   * structured output (MCP `structuredContent`, the AI SDK's `toModelOutput`).
   */
  renderForModel?(output: unknown): string;
}

/** Any function, whatever its parameters' types (the declaration says what it is called with). */
type Callable = (...args: never[]) => unknown;

const MODEL_RENDERING = Symbol.for('toolwright.renderForModel');

/**
 * Gives a tool function (or a toolkit's `@tool()` method) the text rendering the model reads for its
 * output; `fromFunction` carries it to `renderForModel`, however the tool is registered.
 * @example withModelRendering(FileReadTool.prototype.fileRead, (page) => page.content)
 */
export function withModelRendering<F extends (...args: never[]) => unknown>(fn: F, render: (output: Awaited<ReturnType<F>>) => string): F {
  Object.defineProperty(fn, MODEL_RENDERING, { value: render, configurable: true });
  return fn;
}

/**
 * `withModelRendering` as a method decorator, for a toolkit's `@tool()` methods (standard decorators,
 * or `experimentalDecorators`).
 * @example
 * @renderedAs(renderFileRead)
 * @tool({ tier: 'read-only' })
 * async fileRead(path: string): Promise<FileReadResult> { ... }
 */
export function renderedAs<O>(render: (output: O) => string): RenderedAsDecorator<O> {
  return (target: unknown, context: unknown, descriptor?: PropertyDescriptor): void => {
    // Standard: (method, context). Legacy: (prototype, name, descriptor).
    const method: unknown = descriptor
      ? descriptor.value
      : typeof context === 'object' && context !== null && (context as { kind?: unknown }).kind === 'method'
        ? target
        : undefined;
    if (typeof method !== 'function') throw new TypeError('@renderedAs() decorates methods only.');
    Object.defineProperty(method, MODEL_RENDERING, { value: render, configurable: true });
  };
}

/** What `renderedAs` returns: a method decorator whose method must produce the renderer's input. */
export interface RenderedAsDecorator<O> {
  (method: (...args: never[]) => Promise<O> | O, context: ClassMethodDecoratorContext): void;
  (prototype: object, name: string | symbol, descriptor: TypedPropertyDescriptor<(...args: never[]) => Promise<O> | O>): void;
}

/** Adapts a function (optionally bound to a toolkit instance) to the `RegisteredTool` shape. */
export function fromFunction(declaration: ToolDeclaration, fn: Callable, self?: object): RegisteredTool {
  const order = declaration.parameterOrder;
  const asObject = declaration.argumentPassing === 'object';
  const render = (fn as { [MODEL_RENDERING]?: (output: unknown) => string })[MODEL_RENDERING];
  return {
    declaration,
    ...(render ? { renderForModel: render } : {}),
    invoke: (args) => {
      const values = asObject ? [argumentObject(args, order)] : new Array<unknown>(order.length);
      if (!asObject) for (let i = 0; i < order.length; i++) values[i] = args[order[i]!];
      // A synchronous throw becomes a rejection with the same value, as from an async function.
      return new Promise((resolve) => resolve((fn as (...args: unknown[]) => unknown).apply(self, values)));
    },
  };
}

/**
 * The one object a flattened tool receives: a fresh object with the declared arguments that were
 * sent (absent ones stay absent, so destructuring defaults apply), in declaration order.
 */
function argumentObject(args: Readonly<Record<string, unknown>>, order: readonly string[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of order) if (Object.hasOwn(args, name) && args[name] !== undefined) object[name] = args[name];
  return object;
}

/**
 * A tool whose implementation is loaded on first use (expensive clients, large modules). The
 * declaration is known up front, so listing and exporting never trigger the load. A failed load is
 * retried on the next call rather than cached.
 */
export function lazyTool(declaration: ToolDeclaration, load: () => Promise<Callable | { fn: Callable; self?: object }>): RegisteredTool {
  let loading: Promise<RegisteredTool> | undefined;
  return {
    declaration,
    invoke: async (args) => {
      loading ??= load().then((loaded) =>
        typeof loaded === 'function' ? fromFunction(declaration, loaded) : fromFunction(declaration, loaded.fn, loaded.self),
      );
      try {
        const tool = await loading;
        return await tool.invoke(args);
      } catch (error) {
        loading = undefined;
        throw error;
      }
    },
  };
}
