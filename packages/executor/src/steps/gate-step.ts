import type { ToolDeclaration } from '@toolwright/schema';
import type { ApprovalMemory } from '../approval-memory.js';
import type { CallContext } from '../executor-options.js';
import type { CallState, PipelineStep, StepOutcome } from '../call-state.js';
import type { ApprovalHandler, PathResolver, PolicyPort } from '../ports.js';
import { bindPathResolver } from '../policy/path-subject.js';
import { assessCallRisk, type RiskSettings } from './assess-risk.js';
import { judgingGate } from './judged-paths.js';
import { passSafetyGate, type GateInput, type GateOutcome } from './safety-gate.js';

/** What the safety gate consults: the policy, the risk settings, remembered approvals and the approver. */
export interface GateServices {
  policy: PolicyPort | undefined;
  risk: RiskSettings;
  pathResolvers: Record<string, PathResolver> | undefined;
  approvals: ApprovalMemory;
  approve: ApprovalHandler | undefined;
}

/** The gate's input for one call, as the pipeline and `previewGate` both build it. */
export function gateInput(
  services: Omit<GateServices, 'approve'>,
  callId: string,
  declaration: ToolDeclaration,
  args: Record<string, unknown>,
  argsHash: string,
  context: CallContext,
  forceAsk?: string,
  progress?: GateInput['progress'],
  preApproved?: GateInput['preApproved'],
): GateInput {
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
      const { preApproved } = state.context;
      const approvedOutOfBand = preApproved && (() => preApproved(state.call, state.argsHash) === true);
      const input = gateInput(
        services,
        state.call.id,
        state.tool.declaration,
        state.args,
        state.argsHash,
        state.context,
        state.forceAsk,
        state.audit,
        approvedOutOfBand,
      );
      const judging = judgingGate(input, services.risk.riskLevel?.[state.tool.declaration.name] !== undefined);
      const gate = passSafetyGate(judging.input, services.approve);
      const done = (outcome: GateOutcome): StepOutcome | Promise<StepOutcome> => {
        if (outcome.ok) state.judgedPaths = judging.judged();
        return settle(state, outcome);
      };
      return gate instanceof Promise ? gate.then(done) : done(gate);
    },
  };
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
