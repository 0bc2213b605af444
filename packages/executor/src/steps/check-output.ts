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
      // Content blocks (`content(...)`): returned by a tool that declares them (alone, or beside data), or by one with no
      // result schema of its own; a tool that declares content alone must return them.
      const { declaration } = state.tool;
      const contentOnly = declaration.returnsContent === true && declaration.returns === undefined;
      const isContent = isToolContent(state.output) && (declaration.returnsContent === true || declaration.returns === undefined);
      if (!isContent && !contentOnly) return undefined;
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
      if (!returns || state.blocks) return undefined; // content blocks were checked as such
      // The JSON copy is validated, not the tool's value: its getters and toJSON ran once, in the bounded walk.
      const issues = validator.validate(returns, JSON.parse(state.normalised.normalised));
      return issues.length > 0 ? state.audit.fail({ code: 'invalid_output', issues }, state.proof) : undefined;
    },
  };
}
