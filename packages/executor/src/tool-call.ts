import type { ContentBlock } from '@toolwright/tool';
import type { PolicyProof } from './ports.js';
import type { ToolError } from './tool-error.js';

/**
 * One call as the model produced it. `arguments` is the raw JSON text (possibly malformed), or the
 * value a host already parsed (MCP, the AI SDK, Anthropic's `input`): a value gets the same checks as
 * text (depth, forbidden keys, numbers JSON can carry) and is copied, so the host's object is never
 * handed to the tool.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string | Readonly<Record<string, unknown>>;
}

export type ToolCallStatus = ToolCallResult['status'];

interface ResultBase {
  callId: string;
  tool: string;
  /** The text the model reads: the (possibly truncated) output, or the correction message. */
  content: string;
  truncated: boolean;
  durationMs: number;
  /** The policy decision and the rule that made it, when a policy was consulted. */
  proof?: PolicyProof;
}

/** The call ran and returned. */
export interface CompletedToolCall extends ResultBase {
  status: 'completed';
  /** The tool's return value, untruncated. */
  output: unknown;
  /** UTF-8 size of the full model-facing text. */
  originalBytes: number;
  /** sha-256 of the normalised (sorted-key JSON) output. */
  outputHash: string;
  /**
   * A content result's blocks (`content(...)` of @toolwright/tool: text, images, audio, resources), checked; `content`
   * is then their text, with a line for each other block. Hosts that show media (MCP, the AI SDK) pass these on.
   */
  blocks?: readonly ContentBlock[];
  /** The output came from the output cache (`ExecutorOptions.cache`), not a run of the tool: which store answered. */
  cacheHit?: 'disk' | 'memory';
}

/** The call was refused, or failed: `error` says how, `content` words it for the model. */
export interface FailedToolCall extends ResultBase {
  status: 'error';
  error: ToolError;
}

/** What the executor answers for every call, whatever happened. */
export type ToolCallResult = CompletedToolCall | FailedToolCall;
