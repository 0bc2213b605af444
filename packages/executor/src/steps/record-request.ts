import type { PipelineStep } from '../call-state.js';
import { canonicalJson, sha256Hex } from '../output/normalize-output.js';

/** Step: the arguments' canonical JSON and its sha-256, which the audit, approvals and the doom-loop guard key on. */
export const hashArgumentsStep: PipelineStep = {
  stage: 'arguments',
  run(state) {
    state.argsJson = canonicalJson(state.args, 'the arguments');
    state.argsHash = sha256Hex(state.argsJson);
    return undefined;
  },
};

/**
 * Step: the write-ahead `ToolCallRequested` record. A read-only call goes on at once; any other waits
 * for the log's acknowledgement, and is refused (`audit_failed`) when the log cannot take it.
 */
export const recordRequestStep: PipelineStep = {
  stage: 'audit',
  run(state) {
    const written = state.audit.requested(state.tool.declaration, state.argsJson, state.argsHash);
    if (written === true) return undefined;
    return written.then((ok) => (ok ? undefined : state.audit.failClosed()));
  },
};
