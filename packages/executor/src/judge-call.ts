import type { CallContext } from './executor-options.js';
import { previewOf, unassessed, type PreviewServices } from './gate-preview.js';
import { judgingGate } from './gate/judged-paths.js';
import { judgeGate } from './gate/safety-gate.js';
import type { JudgedCall } from './judged-call.js';
import type { JudgedCalls } from './gate/judged-calls.js';
import { argumentsHash } from './output/normalize-output.js';
import { gateInput } from './steps/gate-step.js';

/** The call `judgeCall` judges: its id, its tool and its arguments as a value. */
export interface CallToJudge {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The gate's judgement of a call ahead of its run (`ToolExecutor.judgeCall`): the pipeline's own `judgeGate`
 * (policy, risk, `decideGate`, a remembered `always`), recorded as the pipeline would record it (the paths it
 * judged by), and kept for the run that is handed the result (`CallContext.judged`). A judgement that throws is
 * kept for nobody: the preview says `deny` with the reason, and a run judges the call itself (and reports the
 * throw as the pipeline does). An unknown tool is judged by nobody either: it fails at lookup.
 */
export function judgeCall(services: PreviewServices, judgedCalls: JudgedCalls, call: CallToJudge, context: CallContext): JudgedCall {
  const declaration = services.registry.get(call.name)?.declaration;
  let argsHash = '';
  try {
    argsHash = argumentsHash(call.arguments);
    const facts = { callId: call.id, tool: call.name, argsHash };
    if (!declaration) return Object.freeze({ ...facts, decision: 'allow', reason: 'unknown tools fail at lookup' });
    const judging = judgingGate(
      gateInput(services, { callId: call.id, declaration, args: call.arguments, argsHash, context }),
      services.risk.riskLevel?.[declaration.name] !== undefined,
    );
    const judgement = judgeGate(judging.input);
    return judgedCalls.issue({ ...facts, ...previewOf(judgement) }, { judgement, judgedPaths: judging.judged() }, context);
  } catch (error) {
    return Object.freeze({ callId: call.id, tool: call.name, argsHash, ...unassessed(error) });
  }
}
