import type { PipelineStep } from '../call-state.js';
import { describeThrown } from '../output/describe-thrown.js';
import { formatJsonPath } from '../arguments/json-path.js';
import { MAX_JSON_CHARS, MAX_JSON_NODES, normaliseOutput, OutputTooLargeError, UnrepresentableError } from '../output/normalize-output.js';
import type { SchemaValidator } from '../arguments/schema-validator.js';
import { isToolContent } from '@toolwright/tool';
import { checkContent, contentText } from '../output/content-blocks.js';

/**
 * Step: the output normalised and hashed (`normaliseOutput`, within its size budget). Too large, or
 * holding what JSON cannot (NaN, a bigint, a cycle), fails the call as the tool's fault.
 */
export const normaliseOutputStep: PipelineStep = {
  stage: 'output',
  run(state) {
    try {
      state.normalised = normaliseOutput(state.output);
      // Content blocks (`content(...)`): where the tool declares them, or returns them with no result schema of its own.
      const { declaration } = state.tool;
      if (declaration.returnsContent !== true && (declaration.returns !== undefined || !isToolContent(state.output))) return undefined;
      const checked = checkContent(JSON.parse(state.normalised.normalised));
      if ('issues' in checked) return state.audit.fail({ code: 'invalid_output', issues: checked.issues }, state.proof);
      state.blocks = checked.blocks;
      state.normalised = { ...state.normalised, text: contentText(checked.blocks) };
      return undefined;
    } catch (error) {
      if (error instanceof OutputTooLargeError)
        return state.audit.fail({ code: 'output_too_large', reason: error.reason, maxValues: MAX_JSON_NODES, maxChars: MAX_JSON_CHARS }, state.proof);
      if (error instanceof UnrepresentableError)
        return state.audit.fail(
          { code: 'invalid_output', issues: [{ path: formatJsonPath(error.keys), kind: 'not_json', received: error.received }] },
          state.proof,
        );
      return state.audit.fail(
        { code: 'invalid_output', issues: [{ path: '$', kind: 'not_json', received: `unreadable (${describeThrown(error, 'the output').message})` }] },
        state.proof,
      );
    }
  },
};

/** Step: the output against the tool's declared `returns` schema, when it declares one. */
export function validateOutputStep(validator: SchemaValidator): PipelineStep {
  return {
    stage: 'output',
    run(state) {
      const { returns } = state.tool.declaration;
      if (!returns) return undefined;
      // The JSON copy is validated, not the tool's value: its getters and toJSON ran once, in the bounded walk.
      const issues = validator.validate(returns, JSON.parse(state.normalised.normalised));
      return issues.length > 0 ? state.audit.fail({ code: 'invalid_output', issues }, state.proof) : undefined;
    },
  };
}
