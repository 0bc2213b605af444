/**
 * The part of the WebAssembly JavaScript API the main thread uses. TypeScript declares `WebAssembly`
 * only in its DOM library, which this package does not load; Node has the global all the same.
 */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  compile(bytes: Uint8Array): Promise<CompiledModule>;
}

/** A compiled `WebAssembly.Module`: posted to workers as is, instantiated there. */
export interface CompiledModule {
  readonly [Symbol.toStringTag]: string;
}

export const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
