import { CallAudit } from './call-audit.js';
import { CallState, type PipelineStep } from './call-state.js';
import type { EventBus } from './events.js';
import type { CallContext } from './executor-options.js';
import type { PipelineServices } from './pipeline-services.js';
import type { AuditSink } from './ports.js';
import { runSteps } from './run-steps.js';
import { afterHooksStep, beforeHooksStep } from './steps/apply-hooks.js';
import { capabilityStep } from './steps/capability-check.js';
import { normaliseOutputStep, validateOutputStep } from './steps/check-output.js';
import { completeCallStep } from './steps/complete-call.js';
import { doomLoopCheckStep, doomLoopRecordStep } from './steps/doom-loop.js';
import { safetyGateStep } from './steps/gate-step.js';
import { lookupStep } from './steps/lookup.js';
import { modelContentStep } from './steps/model-content.js';
import { decodeArgumentsStep, readArgumentsStep, validateArgumentsStep } from './steps/read-arguments.js';
import { hashArgumentsStep, recordRequestStep } from './steps/record-request.js';
import { repairsOf } from './arguments/repair-arguments.js';
import { runToolStep } from './steps/run-tool.js';
import { cacheLookupStep } from './steps/cache-lookup.js';
import { cacheStoreStep } from './steps/cache-store.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';

/** The pipeline, in order. Steps a configuration does not need (a decoder, hooks, the doom-loop guard) are left out. */
export function buildPipeline(s: PipelineServices): readonly PipelineStep[] {
  const { options: o } = s;
  const hooks = o.hooks?.length ? o.hooks : undefined;
  const repairs = repairsOf(o.repairArguments);
  const run = runToolStep({
    events: s.events,
    heartbeatMs: o.heartbeatMs,
    maxTimeoutMs: o.maxTimeoutMs,
    outputBudget: { maxChars: o.maxOutputChars },
    capabilities: o.capabilities,
    workspace: o.workspace,
    workspaceRules: o.workspaceRules,
    elicit: o.elicit,
    ask: o.ask,
  });
  return [
    lookupStep(s.registry),
    readArgumentsStep(s.parseLimits, repairs),
    o.decodeArguments && decodeArgumentsStep(o.decodeArguments),
    validateArgumentsStep(s.validator, repairs, s.parseLimits),
    hooks && beforeHooksStep(hooks, s.validator),
    hashArgumentsStep,
    recordRequestStep,
    capabilityStep(o.capabilities, o.checkCapabilities),
    s.doomLoop && doomLoopCheckStep(s.doomLoop),
    safetyGateStep({ policy: o.policy, risk: o, pathResolvers: o.pathResolvers, approvals: s.approvals, approve: o.approve, judgedCalls: s.judgedCalls }),
    // After the gate: a cached output never skips policy or approval.
    s.cache ? cacheLookupStep(s.cache, run, hooks !== undefined, s.validator) : run,
    hooks && afterHooksStep(hooks),
    normaliseOutputStep,
    validateOutputStep(s.validator),
    s.cache && cacheStoreStep(s.cache),
    modelContentStep(o.maxOutputChars, s.fullOutputs),
    s.doomLoop && doomLoopRecordStep(s.doomLoop),
    completeCallStep,
  ].filter((step): step is PipelineStep => step !== undefined);
}

/**
 * Runs one call through the pipeline. It never rejects: whatever a model, a tool, a hook, a policy, a
 * risk hook, an approver or a sink does becomes a result (`internal_error` names the stage of anything
 * unexpected, and the call is audited).
 */
export function executeToolCall(
  pipeline: readonly PipelineStep[],
  sink: AuditSink,
  events: EventBus,
  call: ToolCall,
  context: CallContext | undefined,
): Promise<ToolCallResult> {
  const audit = new CallAudit(sink, events, call, context ?? {}, performance.now());
  try {
    return Promise.resolve(runSteps(pipeline, 0, new CallState(call, context ?? {}, audit)));
  } catch (error) {
    return Promise.resolve(audit.internalFailure(error));
  }
}
