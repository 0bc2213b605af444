import { formatModelMessage } from './model-message.js';
import { escapeTerminalControls } from './terminal-safe.js';
import type { PolicyProof } from './ports.js';
import type { FailedToolCall, ToolCall } from './tool-call.js';
import type { ToolError } from './tool-error.js';

/** The result of a call that ended in `error`, with the text the model reads (terminal controls escaped). */
export function errorResult(call: ToolCall, error: ToolError, durationMs: number, proof?: PolicyProof): FailedToolCall {
  return {
    callId: call.id,
    tool: call.name,
    status: 'error',
    content: escapeTerminalControls(formatModelMessage(call.name, error)),
    error,
    truncated: false,
    durationMs,
    ...(proof !== undefined ? { proof } : {}),
  };
}
