import type { ToolRegistry } from '@toolwright/registry';
import type { CallContext } from './executor-options.js';
import { Policy } from './policy/policy.js';
import { explainDecision, type PolicyExplanation } from './gate/explain.js';
import { bindPathResolver } from './policy/path-subject.js';
import { assessCallRisk } from './gate/assess-risk.js';
import { describeThrown } from './output/describe-thrown.js';
import { gateInput, type GateServices } from './steps/gate-step.js';
import { argumentsHash } from './output/normalize-output.js';
import { judgeGate, type GateJudgement } from './gate/safety-gate.js';

/** What the safety gate would do with a call, before anyone is asked. */
export interface GatePreview {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  /** Protected paths the person asked must see and confirm (`confirmProtected`). */
  protectedPaths?: readonly string[];
  /**
   * The call asks to run outside the sandbox, and why: a person must see that and confirm it
   * (`confirmEscalation`); an approval token (`preApproved`) does not cover it.
   */
  escalation?: string;
}

/** What a preview consults: the gate's services without the approver, and the registry. */
export type PreviewServices = Omit<GateServices, 'approve'> & { registry: ToolRegistry };

/**
 * The gate's decision for a call without running or auditing it (`ToolExecutor.previewGate`): the same
 * `judgeGate` the pipeline runs (policy, risk, `decideGate`, a remembered `always`). Anything that throws
 * on the way (a policy, a risk hook) answers `deny` with the reason: running the call would refuse it too.
 */
export function previewGate(services: PreviewServices, name: string, args: Record<string, unknown>, context: CallContext): GatePreview {
  const declaration = services.registry.get(name)?.declaration;
  if (!declaration) return { decision: 'allow', reason: 'unknown tools fail at lookup' };
  try {
    return previewOf(judgeGate(gateInput(services, { callId: '', declaration, args, argsHash: argumentsHash(args), context })));
  } catch (error) {
    return unassessed(error);
  }
}

/** A gate judgement as a preview: what a host shows before anyone is asked. */
export function previewOf(judged: GateJudgement): GatePreview {
  if ('ask' in judged) {
    const { reason, protectedPaths, escalation } = judged.ask;
    return { decision: 'ask', reason, ...(protectedPaths ? { protectedPaths } : {}), ...(escalation !== undefined ? { escalation } : {}) };
  }
  const { outcome } = judged;
  if (outcome.ok) return { decision: 'allow', reason: judged.why };
  return { decision: 'deny', reason: (outcome.error.code === 'policy_denied' ? outcome.error.reason : undefined) ?? judged.why };
}

/** The preview of a call whose judgement threw (a policy, a risk hook): running it would refuse it too. */
export function unassessed(error: unknown): GatePreview {
  return { decision: 'deny', reason: `the call could not be assessed: ${describeThrown(error, 'the assessment').message}` };
}

/**
 * `explainDecision` for a call as this executor would take it: its policy (an empty one, whose default
 * applies, when the executor has none or a policy of its own kind) and its own risk assessment.
 */
export function explainCall(services: PreviewServices, name: string, args: Record<string, unknown>, context: CallContext): PolicyExplanation {
  const declaration = services.registry.get(name)?.declaration;
  const policy = services.policy instanceof Policy ? services.policy : new Policy({ rules: [] });
  const risk = declaration ? assessCallRisk(services.risk, declaration, args, context) : undefined;
  const resolvePath = declaration ? bindPathResolver(services.pathResolvers?.[name], declaration, args) : undefined;
  return explainDecision(policy, name, args, declaration, risk, resolvePath);
}
