import type { PipelineStep } from '../call-state.js';

/** Step: the `ToolCallCompleted` record and the result (the last step: it always ends the call). */
export const completeCallStep: PipelineStep = {
  stage: 'output',
  run: (state) => state.audit.complete(state.output, state.normalised, state.content, state.proof, state.blocks),
};
