import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';
import { jsonPathKeys } from '../arguments/json-path.js';
import { checkArgumentValue } from '../arguments/parse-arguments.js';
import { SchemaValidator } from '../arguments/schema-validator.js';
import { describeIssue } from '../model-message.js';
import type { ArgumentIssue } from '../tool-error.js';
import { jsonSchemaFor } from './json-schema-target.js';

/**
 * A schema as both Standard Schema interfaces: `StandardSchemaV1` (`validate`) and `StandardJSONSchemaV1`
 * (`jsonSchema.input` / `.output`) — what zod 4, ArkType and Valibot schemas are, and what the AI SDK, the OpenAI
 * Agents SDK and the MCP SDK take.
 */
export interface ToolStandardSchema<T = unknown> {
  readonly '~standard': StandardSchemaV1.Props<T> & StandardJSONSchemaV1.Props<T>;
}

/** One validator for every Standard Schema made here: it compiles each schema once, by identity. */
const validator = new SchemaValidator();

/**
 * A tool's parameters as a Standard Schema, validated exactly as the executor validates a host-parsed call's
 * arguments: a plain object of JSON values only (`checkArgumentValue`: no NaN, bigint, Date, cycle or `__proto__`
 * key), then the parameters schema, strictly (no coercion, no defaults filled in, safe integers). A valid value
 * comes back as the checked copy; each problem is an issue with the executor's wording and its `path`. Validation
 * changes nothing, so the JSON Schema of the input and of the output are both the parameters schema.
 * @example parametersStandardSchema(getToolDeclaration(readFile)!)['~standard'].validate({ limit: 'ten' })
 *   // { issues: [{ message: "missing required field 'path'", path: ['path'] }, { message: "'limit' must be an integer (got a string)", path: ['limit'] }] }
 */
export function parametersStandardSchema<T extends object = Record<string, unknown>>(declaration: ToolDeclaration): ToolStandardSchema<T> {
  const schema = declaration.parameters;
  return standardSchema<T>(schema, (value) => {
    const read = checkArgumentValue(value);
    if (!read.ok) return read.error.code === 'invalid_arguments' ? failure(read.error.issues) : { issues: [{ message: read.error.message }] };
    const issues = validator.validate(schema, read.value);
    return issues.length > 0 ? failure(issues) : { value: read.value as T };
  });
}

/**
 * A tool's result as a Standard Schema: its declared `returns` schema, checked by the executor's validator as the
 * executor checks the JSON copy of each output. Undefined for a tool that declares none (`Promise<void>`, content
 * results).
 */
export function returnsStandardSchema<T = unknown>(declaration: ToolDeclaration): ToolStandardSchema<T> | undefined {
  const schema = declaration.returns;
  if (schema === undefined) return undefined;
  return standardSchema<T>(schema, (value) => {
    const issues = validator.validate(schema, value);
    return issues.length > 0 ? failure(issues, 'the output') : { value: value as T };
  });
}

function standardSchema<T>(schema: JsonSchema, validate: (value: unknown) => StandardSchemaV1.Result<T>): ToolStandardSchema<T> {
  const convert = (options: StandardJSONSchemaV1.Options): Record<string, unknown> => jsonSchemaFor(schema, options?.target);
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'toolwright',
      validate,
      jsonSchema: Object.freeze({ input: convert, output: convert }),
    }),
  });
}

function failure(issues: readonly ArgumentIssue[], subject?: 'the output'): StandardSchemaV1.FailureResult {
  return {
    issues: issues.map((issue) => {
      const path = jsonPathKeys(issue.path);
      return path.length > 0 ? { message: describeIssue(issue, subject), path } : { message: describeIssue(issue, subject) };
    }),
  };
}
