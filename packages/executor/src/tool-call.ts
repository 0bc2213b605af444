import type { ToolError } from './tool-error.js';

/** One call as the model produced it: the arguments are the raw JSON text (possibly malformed). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ToolCallStatus = 'completed' | 'error';

/** What the executor answers for every call, whatever happened. */
export interface ToolCallResult {
  callId: string;
  tool: string;
  status: ToolCallStatus;
  /** The text the model reads: the (possibly truncated) output, or the correction message. */
  content: string;
  /** The tool's return value, untruncated (absent on error). */
  output?: unknown;
  error?: ToolError;
  truncated: boolean;
  /** UTF-8 size of the full output text, when there was output. */
  originalBytes?: number;
  /** sha-256 of the normalised (sorted-key JSON) output. */
  outputHash?: string;
  durationMs: number;
  /** The policy decision and the rule that made it, when a policy was consulted. */
  proof?: unknown;
}
