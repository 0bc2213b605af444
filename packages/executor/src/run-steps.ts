import type { CallState, PipelineStep, StepOutcome } from './call-state.js';
import type { ToolCallResult } from './tool-call.js';

/**
 * Runs the steps from `from` on, synchronously until one must wait (a hook, an approval, a durable
 * record, the tool), so a read-only call costs the tool's own promise and little else. A throw before
 * the first wait reaches the caller's `try`; after it, a rejection or a throw ends the call as an
 * internal failure of the stage it happened in: the returned promise never rejects.
 */
export function runSteps(steps: readonly PipelineStep[], from: number, state: CallState): ToolCallResult | Promise<ToolCallResult> {
  for (let i = from, n = steps.length; i < n; i++) {
    const step = steps[i]!;
    state.audit.stage = step.stage;
    const outcome = step.run(state);
    if (outcome instanceof Promise)
      return outcome.then(
        (value) => resume(steps, i, state, value),
        (error: unknown) => state.audit.internalFailure(error),
      );
    if (outcome !== undefined) return outcome;
  }
  throw new Error('the pipeline ended without a result');
}

/** After step `index` waited for `value`: its outcome (through its `settle`), then the steps after it. */
function resume(steps: readonly PipelineStep[], index: number, state: CallState, value: unknown): ToolCallResult | Promise<ToolCallResult> {
  const step = steps[index]!;
  try {
    return proceed(steps, index, state, step.settle ? step.settle(state, value) : (value as StepOutcome));
  } catch (error) {
    return state.audit.internalFailure(error);
  }
}

function proceed(
  steps: readonly PipelineStep[],
  index: number,
  state: CallState,
  outcome: StepOutcome | Promise<StepOutcome>,
): ToolCallResult | Promise<ToolCallResult> {
  if (outcome instanceof Promise)
    return outcome.then(
      (settled) => proceed(steps, index, state, settled),
      (error: unknown) => state.audit.internalFailure(error),
    );
  if (outcome !== undefined) return outcome;
  try {
    return runSteps(steps, index + 1, state);
  } catch (error) {
    return state.audit.internalFailure(error);
  }
}
