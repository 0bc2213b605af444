import { Policy } from './policy/policy.js';
import { explainDecision, type PolicyExplanation } from './policy/explain.js';
import { bindPathResolver } from './policy/path-subject.js';
import { assessCallRisk } from './steps/assess-risk.js';
import { describeThrown } from './steps/describe-thrown.js';
import { decideGate } from './steps/gate-decision.js';
import { checkVerdict } from './steps/safety-gate.js';
import { canonicalJson, sha256Hex } from './steps/normalize-output.js';
import type { CallContext, ToolExecutor } from './tool-executor.js';

/** What the safety gate would do with a call, before anyone is asked. */
export interface GatePreview {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  /** Protected paths the person asked must see and confirm (`confirmProtected`). */
  protectedPaths?: readonly string[];
}

/**
 * The gate's decision for a call without running or auditing it (`ToolExecutor.previewGate`): the same
 * `decideGate` the executor runs, then a remembered `always` (never for a protected path). Anything
 * that throws on the way (a policy, a risk hook) answers `deny` with the reason: running the call would
 * refuse it too.
 */
export function previewGate(executor: ToolExecutor, name: string, args: Record<string, unknown>, context: CallContext): GatePreview {
  const declaration = executor.registry.get(name)?.declaration;
  if (!declaration) return { decision: 'allow', reason: 'unknown tools fail at lookup' };
  try {
    const resolvePath = bindPathResolver(executor.options.pathResolvers?.[name], declaration, args);
    const verdict = executor.options.policy?.decide({ tool: name, args, declaration, ...(resolvePath ? { resolvePath } : {}) });
    if (verdict !== undefined) checkVerdict(verdict);
    if (verdict?.effect === 'deny') return { decision: 'deny', reason: verdict.rule?.reason ?? decideGate({ verdict, risk: { level: 'safe', reason: '' } }).why };
    const gate = decideGate({ ...(verdict ? { verdict } : {}), risk: assessCallRisk(executor, declaration, args, context) });
    if (gate.decision !== 'ask') return { decision: gate.decision, reason: gate.why };
    if (gate.protectedPaths.length > 0) return { decision: 'ask', reason: gate.reason, protectedPaths: gate.protectedPaths };
    const request = { callId: '', tool: name, args, argsHash: sha256Hex(canonicalJson(args, 'the arguments')), reason: gate.reason, declaration };
    if (executor.approvals.lookup(request, resolvePath)) return { decision: 'allow', reason: 'approved earlier in this session' };
    return { decision: 'ask', reason: gate.reason };
  } catch (error) {
    return { decision: 'deny', reason: `the call could not be assessed: ${describeThrown(error, 'the assessment').message}` };
  }
}

/**
 * `explainDecision` for a call as this executor would take it: its policy (an empty one, whose default
 * applies, when the executor has none or a policy of its own kind) and its own risk assessment.
 */
export function explainCall(executor: ToolExecutor, name: string, args: Record<string, unknown>, context: CallContext): PolicyExplanation {
  const declaration = executor.registry.get(name)?.declaration;
  const policy = executor.options.policy instanceof Policy ? executor.options.policy : new Policy({ rules: [] });
  const risk = declaration ? assessCallRisk(executor, declaration, args, context) : undefined;
  const resolvePath = declaration ? bindPathResolver(executor.options.pathResolvers?.[name], declaration, args) : undefined;
  return explainDecision(policy, name, args, declaration, risk, resolvePath);
}
