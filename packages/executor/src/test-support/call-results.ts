import type { CompletedToolCall, FailedToolCall, ToolCallResult } from '../tool-call.js';

/** `result`, which the test expects to be a completed call's: when the call failed, the test fails here, saying how. */
export function completed(result: ToolCallResult): CompletedToolCall {
  if (result.status !== 'completed')
    throw new Error(`call ${result.callId} failed (${result.error.code}), where the test expects it to complete: ${result.content}`);
  return result;
}

/** `result`, which the test expects to be a failed call's: when the call completed, the test fails here, saying so. */
export function failed(result: ToolCallResult): FailedToolCall {
  if (result.status !== 'error') throw new Error(`call ${result.callId} completed, where the test expects it to fail: ${result.content}`);
  return result;
}
