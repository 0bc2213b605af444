import type { JudgedPaths } from '@toolwright/tool';
import { isPathParameter } from '../call-resources.js';
import type { GateInput } from './safety-gate.js';

/** A gate input that notes what it judged the call's paths by, and that record once the gate has passed. */
export interface JudgingGate {
  input: GateInput;
  /** The spellings the policy's path rules saw and the protected paths the risk assessment named; undefined when nothing was judged. */
  judged(): JudgedPaths | undefined;
}

/**
 * Wraps a gate input so that every path spelling the host's resolver gives at the gate (what the
 * policy's path rules match) and the protected paths the risk assessment names (what the approval
 * covers) are noted. The tool is handed the record (`ToolCallContext.judgedPaths`): a tool that
 * resolves its path again at use time refuses a file the gate did not judge, so a link flipped
 * between the gate and the use cannot carry an allowed or approved call to a denied or protected file.
 * `hasRiskHook`: whether the tool's risk hook judges protected paths at all (without one, none are named).
 */
export function judgingGate(input: GateInput, hasRiskHook: boolean): JudgingGate {
  const resolved: Record<string, string[]> = {};
  let protectedPaths: readonly string[] | undefined;
  const { resolvePath, risk } = input;
  const judging: GateInput = {
    ...input,
    risk: () => {
      const assessment = risk();
      if (hasRiskHook) protectedPaths = [...(assessment.protectedPaths ?? [])];
      return assessment;
    },
    ...(resolvePath
      ? {
          resolvePath: (argument, value, args) => {
            const answer = resolvePath(argument, value, args);
            if (!isPathParameter(input.declaration, argument)) return answer;
            const seen = (resolved[argument] ??= []);
            if (Array.isArray(answer)) for (const spelling of answer) if (typeof spelling === 'string' && !seen.includes(spelling)) seen.push(spelling);
            return answer;
          },
        }
      : {}),
  };
  return {
    input: judging,
    judged: () =>
      Object.keys(resolved).length === 0 && protectedPaths === undefined
        ? undefined
        : Object.freeze({ resolved: Object.freeze({ ...resolved }), ...(protectedPaths ? { protectedPaths: Object.freeze(protectedPaths) } : {}) }),
  };
}
