// Typed reads of the executor's results (`ToolCallResult` of @toolwright/executor, which this package does not
// depend on: its tests import the executor, its test support only describes the results' shape).

interface CallResult {
  callId: string;
  status: 'completed' | 'error';
  content: string;
}

/** `result`, which the test expects to be a completed call's: when the call failed, the test fails here, saying how. */
export function completed<R extends CallResult>(result: R): Extract<R, { status: 'completed' }> {
  if (result.status !== 'completed') throw new Error(`call ${result.callId} failed, where the test expects it to complete: ${result.content}`);
  return result as Extract<R, { status: 'completed' }>;
}

/** `result`, which the test expects to be a failed call's: when the call completed, the test fails here, saying so. */
export function failed<R extends CallResult>(result: R): Extract<R, { status: 'error' }> {
  if (result.status !== 'error') throw new Error(`call ${result.callId} completed, where the test expects it to fail: ${result.content}`);
  return result as Extract<R, { status: 'error' }>;
}
