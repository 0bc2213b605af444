import type { PipelineStep } from '../call-state.js';
import type { ArgumentDecoder } from '../executor-options.js';
import { parseArguments, type ParseLimits } from './parse-arguments.js';
import type { SchemaValidator } from './schema-validator.js';

/** Step: the arguments as a checked value (`parseArguments`), or `invalid_json`/`invalid_arguments`. */
export function readArgumentsStep(limits: ParseLimits): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      const { call } = state;
      const parsed = parseArguments(call.arguments, limits);
      if (!parsed.ok) return state.audit.reject(parsed.error, { tool: call.name, args: call.arguments, tier: state.tool.declaration.metadata.tier });
      state.args = parsed.value;
      return undefined;
    },
  };
}

/** Step: the dialect's decoding (the call's own, else the executor's), when there is one. */
export function decodeArgumentsStep(decoder: ArgumentDecoder | undefined): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      const decode = state.context.decodeArguments ?? decoder;
      if (decode) state.args = decode(state.args, state.tool.declaration);
      return undefined;
    },
  };
}

/** Step: the arguments against the tool's parameters schema, every problem reported at once. */
export function validateArgumentsStep(validator: SchemaValidator): PipelineStep {
  return {
    stage: 'arguments',
    run(state) {
      const { declaration } = state.tool;
      const issues = validator.validate(declaration.parameters, state.args);
      if (issues.length === 0) return undefined;
      return state.audit.reject({ code: 'invalid_arguments', issues }, { tool: state.call.name, args: state.args, tier: declaration.metadata.tier });
    },
  };
}
