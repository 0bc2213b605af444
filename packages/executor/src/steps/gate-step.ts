import type { ToolDeclaration } from '@toolwright/schema';
import type { ApprovalMemory } from '../approval-memory.js';
import type { CallContext } from '../executor-options.js';
import type { CallState, PipelineStep, StepOutcome } from '../call-state.js';
import type { ApprovalHandler, PathResolver, PolicyPort } from '../ports.js';
import { bindPathResolver } from '../policy/path-subject.js';
import { assessCallRisk, type RiskSettings } from '../gate/assess-risk.js';
import { judgingGate } from '../gate/judged-paths.js';
import { passJudgedGate, passSafetyGate, type GateInput, type GateOutcome } from '../gate/safety-gate.js';
import type { CarriedJudgement, JudgedCalls } from '../gate/judged-calls.js';

/** What the safety gate consults: the policy, the risk settings, remembered approvals and the approver. */
export interface GateServices {
  policy: PolicyPort | undefined;
  risk: RiskSettings;
  pathResolvers: Record<string, PathResolver> | undefined;
  approvals: ApprovalMemory;
  approve: ApprovalHandler | undefined;
  /** Judgements made ahead of runs (`ToolExecutor.judgeCall`), which a run handed one (`CallContext.judged`) takes. */
  judgedCalls?: JudgedCalls;
}

/** What the gate is told of one call: the pipeline takes it from the call's state (`gateCallOf`), a preview makes it. */
export interface GateCall {
  callId: string;
  declaration: ToolDeclaration;
  args: Record<string, unknown>;
  argsHash: string;
  context: CallContext;
  forceAsk?: string | undefined;
  progress?: GateInput['progress'];
  preApproved?: GateInput['preApproved'];
}

/** The gate's input for one call, as the pipeline and `previewGate` both build it. */
export function gateInput(services: Omit<GateServices, 'approve'>, call: GateCall): GateInput {
  const { callId, declaration, args, argsHash, context, forceAsk, progress, preApproved } = call;
  return {
    callId,
    declaration,
    args,
    argsHash,
    policy: services.policy,
    memory: services.approvals,
    risk: () => assessCallRisk(services.risk, declaration, args, context),
    resolvePath: bindPathResolver(services.pathResolvers?.[declaration.name], declaration, args),
    forceAsk,
    preApproved,
    progress,
  };
}

/** The gate's view of a call in the pipeline; an approval given out of band (`preApproved`) counts for this call only. */
function gateCallOf(state: CallState): GateCall {
  const { preApproved } = state.context;
  return {
    callId: state.call.id,
    declaration: state.tool.declaration,
    args: state.args,
    argsHash: state.argsHash,
    context: state.context,
    forceAsk: state.forceAsk,
    progress: state.audit,
    preApproved: preApproved && (() => preApproved(state.call, state.argsHash) === true),
  };
}

/**
 * Step: policy and approval (`passSafetyGate`), recorded as a `PolicyDecision` (with `escalation` for a
 * call that asked to run outside the sandbox; `approval: 'escalation'` when a person confirmed it, which
 * the tool's context then carries as `escalationConfirmed`); a refused call ends here. What the gate judged
 * the call's paths by goes to the tool's context as `judgedPaths` (`judgingGate`).
 */
export function safetyGateStep(services: GateServices): PipelineStep {
  return {
    stage: 'policy',
    run(state) {
      const input = gateInput(services, gateCallOf(state));
      // A judgement made ahead of the run for exactly this call (`judgeCall`), or the gate judges it now.
      const carried = judgedAhead(services, state);
      const judging = carried ? undefined : judgingGate(input, services.risk.riskLevel?.[state.tool.declaration.name] !== undefined);
      const gate = carried ? passJudgedGate(input, carried.judgement, services.approve) : passSafetyGate(judging!.input, services.approve);
      const done = (outcome: GateOutcome): StepOutcome | Promise<StepOutcome> => {
        if (outcome.ok) state.judgedPaths = carried ? carried.judgedPaths : judging!.judged();
        return settle(state, outcome);
      };
      return gate instanceof Promise ? gate.then(done) : done(gate);
    },
  };
}

/**
 * The judgement this run was handed (`CallContext.judged`), when it is one this executor made for exactly this call
 * (`JudgedCalls.take`); never for a call the repeated-call guard forces to ask, which was not judged so.
 */
function judgedAhead(services: GateServices, state: CallState): CarriedJudgement | undefined {
  const { judged } = state.context;
  if (judged === undefined || !services.judgedCalls || state.forceAsk !== undefined) return undefined;
  return services.judgedCalls.take(judged, { callId: state.call.id, tool: state.tool.declaration.name, argsHash: state.argsHash }, state.context);
}

function settle(state: CallState, gate: GateOutcome): StepOutcome | Promise<StepOutcome> {
  const { verdict } = gate;
  state.audit.note({
    type: 'PolicyDecision',
    callId: state.call.id,
    effect: verdict?.effect ?? 'allow',
    rule: verdict?.rule?.text,
    proof: verdict?.proof,
    approval: gate.approval,
    // An escalated call says so in its record: why it asked to run outside the sandbox, and who decided (`approval`).
    ...(gate.escalation !== undefined ? { escalation: gate.escalation } : {}),
  });
  state.proof = verdict?.proof;
  state.escalationConfirmed = gate.ok && gate.approval === 'escalation';
  return gate.ok ? undefined : state.audit.rejectAfterRequest(gate.error, state.proof);
}
