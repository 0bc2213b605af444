import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv/dist/2020.js';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsPlugin from 'ajv-formats';
import type { JsonSchema } from '@toolwright/schema';
import type { ArgumentIssue } from '../tool-error.js';
import { formatJsonPath } from './json-path.js';
import { jsonType } from './json-type.js';
import { SAFE_INTEGER_KEYWORD, withSafeIntegers } from './safe-integer-schema.js';
import { isWellFormedSchema } from './well-formed-schema.js';

/**
 * AJV and its formats, loaded at the first validation (~120 ms of module loading a server would otherwise spend
 * before it can answer its first `tools/list`).
 */
function makeAjv(): Ajv2020 {
  const load = createRequire(__filename);
  const { Ajv2020: Ajv, _ } = load('ajv/dist/2020.js') as typeof AjvModule;
  const addFormats = load('ajv-formats') as typeof addFormatsPlugin;
  // A schema is checked against the meta-schema by `SchemaValidator` itself, and only when `isWellFormedSchema` cannot
  // tell: compiling the meta-schema's validator costs ~140 ms, and the schemas `@tool` generates never need it.
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    strict: false,
    strictNumbers: true,
    validateFormats: true,
    validateSchema: false,
  });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: SAFE_INTEGER_KEYWORD,
    type: 'number',
    schemaType: 'boolean',
    error: { message: 'must be a safe integer (between -9007199254740991 and 9007199254740991)' },
    code: (cxt) => cxt.fail(_`!Number.isSafeInteger(${cxt.data})`),
  });
  return ajv;
}

/**
 * Compiles schemas once (by identity) into validators that report every violation with its JSON path.
 * No coercion: a string "5" for a number is an error the model must fix, never silently converted.
 * Numbers are strict: NaN and ±Infinity are never a `number` or an `integer` (values a hook or a host
 * hands in can hold them), and an `integer` must be a safe integer (|n| ≤ 2^53 − 1).
 */
export class SchemaValidator {
  private ajv: Ajv2020 | undefined;
  private readonly cache = new WeakMap<object, ValidateFunction>();

  validate(schema: JsonSchema, value: unknown): ArgumentIssue[] {
    let validate = this.cache.get(schema);
    if (!validate) {
      const ajv = (this.ajv ??= makeAjv());
      const prepared = withSafeIntegers(schema);
      // A schema the walk cannot vouch for is compiled as AJV always compiles, checked against the meta-schema first.
      const checked = !isWellFormedSchema(prepared);
      ajv.opts.validateSchema = checked;
      try {
        validate = ajv.compile(prepared);
      } finally {
        ajv.opts.validateSchema = false;
      }
      this.cache.set(schema, validate);
    }
    if (validate(value)) return [];
    return describeErrors(validate.errors ?? [], value);
  }
}

/** Turns AJV errors into one issue per problem, as data (`describeIssue` words them). */
export function describeErrors(errors: readonly ErrorObject[], value?: unknown): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // anyOf reports every branch's failure first; the summary is enough for the model.
    if (errors.some((other) => other !== error && other.keyword === 'anyOf' && error.schemaPath.startsWith(other.schemaPath.replace(/\/anyOf$/, '/anyOf/'))))
      continue;
    const issue = describe(error, value);
    const key = `${issue.path}|${issue.kind}|${error.keyword}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

function describe(error: ErrorObject, value: unknown): ArgumentIssue {
  const path = toPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: childPath(path, String(params.missingProperty)), kind: 'missing' };
    case 'additionalProperties':
      return { path: childPath(path, String(params.additionalProperty)), kind: 'unexpected' };
    case 'type':
      return { path, kind: 'type', expected: String(params.type).split(','), received: jsonType(valueAt(value, error.instancePath)) };
    case 'enum':
      return { path, kind: 'enum', allowed: [...(params.allowedValues as unknown[])] };
    case 'const':
      return { path, kind: 'const', expected: params.allowedValue };
    case 'anyOf':
    case 'oneOf':
      return { path, kind: 'no_match' };
    default:
      return { path, kind: 'constraint', keyword: error.keyword, params: { ...params }, detail: error.message ?? 'is invalid' };
  }
}

/** The value at a JSON pointer (`/options/items/0`), read only on the error path. */
function valueAt(value: unknown, pointer: string): unknown {
  if (!pointer) return value;
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

function childPath(path: string, field: string): string {
  return path === '$' ? formatJsonPath([field]) : `${path}${formatJsonPath([field]).slice(1)}`;
}

/** `/options/items/0` → `$.options.items[0]`. */
function toPath(pointer: string): string {
  if (!pointer) return '$';
  return formatJsonPath(
    pointer
      .split('/')
      .slice(1)
      .map((raw) => {
        const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        return /^\d+$/.test(part) ? Number(part) : part;
      }),
  );
}
