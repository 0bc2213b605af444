import type { ToolFunction } from './type-checks.js';

/** The positional parameters of a tool function, as a tuple. */
export type ToolParameters<F extends ToolFunction> = Parameters<F>;

/** The value a tool resolves to. */
export type ToolResult<F extends ToolFunction> = Awaited<ReturnType<F>>;
