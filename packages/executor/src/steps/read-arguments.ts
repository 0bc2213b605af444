import type { PipelineStep } from '../call-state.js';
import type { ArgumentDecoder } from '../executor-options.js';
import { parseArguments, type ParseLimits } from '../arguments/parse-arguments.js';
import { repairText, repairValue, type ArgumentRepairs } from '../arguments/repair-arguments.js';
import type { SchemaValidator } from '../arguments/schema-validator.js';

/**
 * Step: the arguments as a checked value (`parseArguments`), or `invalid_json`/`invalid_arguments`. With
 * repairs on, text that does not parse is repaired when it can be (`repairText`) and parsed again.
 */
export function readArgumentsStep(limits: ParseLimits, repairs: Required<ArgumentRepairs> | undefined): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      const { call } = state;
      let parsed = parseArguments(call.arguments, limits);
      // Oversized text is refused as it is: repairing it could only make it larger work for nothing.
      if (!parsed.ok && repairs && typeof call.arguments === 'string' && call.arguments.length <= limits.maxLength) {
        const repaired = repairText(call.arguments, repairs);
        const reparsed = repaired && parseArguments(repaired.text, limits);
        if (reparsed?.ok) {
          parsed = reparsed;
          state.audit.repaired = { repairs: repaired!.repairs, originalArguments: call.arguments };
        }
      }
      if (!parsed.ok) return state.audit.reject(parsed.error, { tool: call.name, args: call.arguments, tier: state.tool.declaration.metadata.tier });
      state.args = parsed.value;
      return undefined;
    },
  };
}

/** Step: the dialect's decoding (`ExecutorOptions.decodeArguments`), in the pipeline only when one is set. */
export function decodeArgumentsStep(decode: ArgumentDecoder): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      state.args = decode(state.args, state.tool.declaration);
      return undefined;
    },
  };
}

/**
 * Step: the arguments against the tool's parameters schema, every problem reported at once. With repairs
 * on, refused arguments are repaired against the schema when they can be (`repairValue`), and taken only
 * when the repaired arguments pass; otherwise the problems as sent are reported.
 */
export function validateArgumentsStep(validator: SchemaValidator, repairs: Required<ArgumentRepairs> | undefined, limits: ParseLimits): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      const { declaration } = state.tool;
      const issues = validator.validate(declaration.parameters, state.args);
      if (issues.length === 0) return undefined;
      const repaired = repairs && repairValue(declaration.parameters, state.args, repairs, limits);
      if (repaired && validator.validate(declaration.parameters, repaired.value).length === 0) {
        const earlier = state.audit.repaired;
        state.audit.repaired = { repairs: [...(earlier?.repairs ?? []), ...repaired.repairs], originalArguments: state.call.arguments };
        state.args = repaired.value;
        return undefined;
      }
      return state.audit.reject({ code: 'invalid_arguments', issues }, { tool: state.call.name, args: state.args, tier: declaration.metadata.tier });
    },
  };
}
