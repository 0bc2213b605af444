import { describeIssue, nearestNames, SchemaValidator, type ArgumentIssue } from '@toolwright/executor';
import type { JsonSchema } from '@toolwright/schema';
import { schemaNodesAt } from './config-schema.js';

/** One problem in a config file: where (a JSON path such as `$.shell.allow[0]`) and what was expected. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/**
 * The executor's validator words its issues for a model calling a tool; a config file's reader
 * wants them per key: an unknown key names the nearest known one, an `anyOf` miss says which shapes
 * fit, and every other issue keeps its text without the repeated path.
 */
export function configIssuesOf(issues: readonly ArgumentIssue[], schema: JsonSchema, config: unknown, validator = new SchemaValidator()): ConfigIssue[] {
  // One issue per key: a fraction is "not an integer" and also "not a safe integer".
  const firstPerPath = issues.filter((issue, index) => issues.findIndex((other) => other.path === issue.path) === index);
  return firstPerPath.flatMap((issue) => {
    const keys = parseJsonPath(issue.path);
    if (issue.kind === 'unexpected') return [{ path: issue.path, message: unknownKey(schema, keys) }];
    if (issue.kind === 'missing') return [{ path: issue.path, message: `is required${expectedAt(schema, keys, ': ')}` }];
    const value = valueAt(config, keys);
    const got = ` (found ${preview(value)})`;
    const nodes = schemaNodesAt(schema, keys);
    if (issue.kind === 'no_match') {
      // The one branch the value was meant for (by JSON type, then by required keys) says what is wrong inside it.
      const branch = meantBranch(nodes, value);
      if (branch) {
        const inner = configIssuesOf(validator.validate(branch, value), branch, value, validator);
        if (inner.length > 0) return inner.map((i) => ({ path: `${issue.path}${i.path.slice(1)}`, message: i.message }));
      }
      return [{ path: issue.path, message: `must be ${describeShapes(nodes)}${got}` }];
    }
    if (issue.kind === 'type' && nodes.length > 0) return [{ path: issue.path, message: `must be ${describeShapes(nodes)}${got}` }];
    return [{ path: issue.path, message: `${withoutPath(issue)}${got}` }];
  });
}

/** What the issue says about its value, without the path (the config error names the key itself). */
function withoutPath(issue: ArgumentIssue): string {
  if (issue.kind === 'constraint') return issue.detail;
  if (issue.kind === 'type') return `must be ${describeShapes(issue.expected.map((type) => ({ type }) as JsonSchema))}`;
  const text = describeIssue({ ...issue, path: '$' });
  return text.startsWith('the arguments ') ? text.slice('the arguments '.length) : text;
}

function meantBranch(nodes: readonly JsonSchema[], value: unknown): JsonSchema | undefined {
  const type = Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : undefined;
  if (type === undefined) return undefined; // a scalar has nothing inside to point at
  let candidates = nodes.filter((node) => node.type === type);
  if (candidates.length > 1 && type === 'object') {
    candidates = candidates.filter((node) => (node.required ?? []).every((key) => key in (value as object)));
  }
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** `file: $.a.b: message`, one line per issue. */
export function formatConfigIssues(file: string, issues: readonly ConfigIssue[]): string {
  return issues.map((issue) => `${file}: ${issue.path}: ${issue.message}`).join('\n');
}

function unknownKey(schema: JsonSchema, keys: readonly (string | number)[]): string {
  const name = String(keys[keys.length - 1]);
  const known = [...new Set(schemaNodesAt(schema, keys.slice(0, -1)).flatMap((node) => Object.keys(node.properties ?? {})))];
  if (/^api_?key$/i.test(name) && known.includes('apiKeyEnv')) {
    return `unknown key '${name}': the API key never goes in this file; put it in an environment variable and name that variable in 'apiKeyEnv'`;
  }
  const near = nearestNames(name, known, 1);
  if (near.length > 0) return `unknown key '${name}'; did you mean '${near[0]}'?`;
  return `unknown key '${name}'; expected one of: ${known.join(', ')}`;
}

function expectedAt(schema: JsonSchema, keys: readonly (string | number)[], prefix: string): string {
  const nodes = schemaNodesAt(schema, keys);
  return nodes.length > 0 ? `${prefix}${describeShapes(nodes)}` : '';
}

/** `a string or an object`, `"none" or an object`, `one of "host", "session"`, `an array of strings`. */
export function describeShapes(nodes: readonly JsonSchema[]): string {
  return [...new Set(nodes.map(describeShape))].join(' or ');
}

function describeShape(node: JsonSchema): string {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.anyOf) return describeShapes(node.anyOf);
  const type = Array.isArray(node.type) ? node.type.join(' or ') : (node.type ?? 'any value');
  if (type === 'array' && node.items) return `an array of ${plural(describeShape(node.items))}`;
  if (type === 'object' && node.required?.length) return `an object with ${node.required.map((key) => JSON.stringify(key)).join(' and ')}`;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** `a string` → `strings`; shapes that do not start with an article are kept as they are. */
function plural(shape: string): string {
  const match = /^an? (\w+)(.*)$/.exec(shape);
  return match ? `${match[1]}s${match[2]}` : shape;
}

/** `$.a.b[0]["x y"]` → `['a', 'b', 0, 'x y']` (the form `formatJsonPath` writes). */
export function parseJsonPath(path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  const token = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.slice(1).matchAll(token)) {
    keys.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string)));
  }
  return keys;
}

function valueAt(value: unknown, keys: readonly (string | number)[]): unknown {
  return keys.reduce<unknown>(
    (current, key) => (current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>)[key] : undefined),
    value,
  );
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
