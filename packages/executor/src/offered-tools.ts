/**
 * The tools a model was offered (the tool list of the request that produced its calls), handed to the executor as
 * `CallContext.offeredTools`: a call of a registered tool the model was not offered is refused at lookup as if the tool
 * did not exist (`unknown_tool`), except a deferred one, which the model can still find: `tool_not_loaded` tells it to
 * call `searchTool` first. `DeferredToolSet` is the implementation for deferred loading.
 */
export interface OfferedTools {
  /** Whether the model has the tool's declaration, and so may call it. */
  offers(name: string): boolean;
  /** Whether the tool is deferred and not loaded yet: the model finds it with `searchTool`, which loads it. */
  defers(name: string): boolean;
  /** The tool that finds deferred tools (`tool_search`). */
  readonly searchTool: string;
}
