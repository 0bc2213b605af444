import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolCallContext } from '@toolwright/tool';

/** One call of a source tool, as its runner receives it: what to run, the arguments, and the call's limits. */
export interface SourceRequest<Target, Options> {
  /** The tool's wire name. */
  tool: string;
  /** What runs it, resolved: a module's absolute path, a program's argv, an endpoint's URL. */
  target: Target;
  options: Options;
  declaration: ToolDeclaration;
  /** The validated arguments as one JSON object, keyed by the declared argument names. */
  input: Record<string, unknown>;
  /** Aborted at the call's deadline or on cancellation: the runner stops the work and leaves nothing running. */
  signal: AbortSignal;
  /** The executor's context of the call (workspace, capabilities); absent when the function is called directly. */
  context: ToolCallContext | undefined;
}

/** Runs one call of a source tool and resolves to its JSON result, or rejects with a `SourceError`. */
export type SourceRunner<Target, Options> = (request: SourceRequest<Target, Options>) => Promise<unknown>;
