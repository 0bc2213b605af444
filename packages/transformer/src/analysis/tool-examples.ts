import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv/dist/2020.js';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsPlugin from 'ajv-formats';
import type { JsonValue, ParametersSchema } from '@toolwright/schema';
import type { ts } from '../front-end/typescript.js';
import type { Reporter } from '../reporter.js';
import { literalDefault } from './literal-default.js';
import type { RawOption } from './tool-options.js';

/**
 * The examples of a tool as argument objects, each checked against the tool's parameters; every one that is not
 * JSON, not an object or does not fit is reported at its tag or literal (TW1020), and left out.
 * @example  @example {"path": "README.md", "limit": 10}
 * @example  @tool({ examples: [{ path: 'README.md', limit: 10 }] })
 */
export function readExamples(entry: RawOption, parameters: ParametersSchema, reporter: Reporter, tool: string): Record<string, JsonValue>[] {
  const examples: Record<string, JsonValue>[] = [];
  let validate: ValidateFunction | undefined;
  const texts = Array.isArray(entry.value) ? entry.value : undefined;
  (entry.items ?? []).forEach((node, at) => {
    const args = { tool, index: String(at + 1) };
    let value: JsonValue | undefined;
    if (texts) {
      try {
        value = JSON.parse(texts[at]!) as JsonValue;
      } catch {
        // Not the parser's own message: its wording differs between Node.js versions.
        return reporter.report('invalidExample.notJson', args, node);
      }
    } else {
      value = literalDefault(node as ts.Expression)?.value;
      if (value === undefined) return reporter.report('invalidExample.notStatic', args, node);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const actual = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      return reporter.report('invalidExample.notObject', { ...args, actual }, node);
    }
    const issue = firstIssue((validate ??= validator().compile(parameters)), value);
    if (issue) return reporter.report('invalidExample.doesNotFit', { ...args, ...issue }, node);
    examples.push(value);
  });
  // The compiled schema is this build's only: a watching compiler would otherwise keep every version of it.
  if (validate) validator().removeSchema(parameters);
  return examples;
}

/** AJV (as the executor validates arguments: JSON Schema 2020-12, formats checked), loaded for the first tool with examples. */
let ajv: Ajv2020 | undefined;
function validator(): Ajv2020 {
  if (ajv) return ajv;
  const load = createRequire(__filename);
  const { Ajv2020: Ajv } = load('ajv/dist/2020.js') as typeof AjvModule;
  const addFormats = load('ajv-formats') as typeof addFormatsPlugin;
  // No logger: a format of the project's own (`@format`) is unknown here and would be printed on every build.
  ajv = new Ajv({ allErrors: false, strict: false, validateFormats: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/** The first way the example misses the parameters, as the argument it concerns and what is wrong; none when it fits. */
function firstIssue(validate: ValidateFunction, example: Record<string, JsonValue>): { path: string; issue: string } | undefined {
  if (validate(example)) return undefined;
  const errors = validate.errors ?? [];
  // A union reports each member's failure before its own: the union's error says what the value missed.
  const error = errors.find((e) => e.keyword === 'anyOf') ?? errors[0]!;
  const path = pathOf(error);
  const top = !/[.[]/.test(path);
  if (error.keyword === 'additionalProperties') return { path, issue: `'${path}' is not ${top ? 'a parameter of the tool' : 'a property there'}` };
  if (error.keyword === 'required') return { path, issue: `required ${top ? 'argument' : 'property'} '${path}' is missing` };
  return { path: path || '(the arguments)', issue: `${path ? `'${path}'` : 'the arguments'} ${error.message ?? 'is not valid'}` };
}

/** `/options/depth` → `options.depth`; the property a `required` or `additionalProperties` error names is part of its path. */
function pathOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const named = params.missingProperty ?? params.additionalProperty;
  if (named !== undefined) segments.push(named);
  return segments.map((segment, at) => (/^\d+$/.test(segment) ? `[${segment}]` : at === 0 ? segment : `.${segment}`)).join('');
}
