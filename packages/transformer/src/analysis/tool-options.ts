import { ts } from '../front-end/typescript.js';
import {
  CLIENT_FEATURES,
  TASK_SUPPORT,
  TOOL_CALLERS,
  DEFAULT_DETERMINISM,
  DEFAULT_TIER,
  DEFAULT_TIMEOUT_MS,
  DETERMINISM_LEVELS,
  SAFETY_TIERS,
  SEMVER_PATTERN,
  SIDE_EFFECTS,
  parseDuration,
  parseSize,
  type ClientFeature,
  type TaskSupport,
  type ToolCaller,
  type Determinism,
  type SafetyTier,
  type SideEffect,
  type ToolMetadata,
  type ToolOptions,
} from '@toolwright/schema';
import type { DIAGNOSTICS } from '../diagnostics.js';
import type { DocInfo } from '../jsdoc-reader.js';
import type { Reporter } from '../reporter.js';

type OptionValue = string | number | boolean | string[];
/**
 * An option as written. Examples keep one node each in `items`: an `examples` literal's elements (read as literals by
 * readExamples; `value` is unused), or the `@example` tags, whose JSON texts are `value`.
 */
export interface RawOption {
  value: OptionValue;
  node: ts.Node;
  items?: ts.Node[];
}
type RawOptions = Map<keyof ToolOptions, RawOption>;

const OPTION_NAMES: readonly (keyof ToolOptions)[] = [
  'name',
  'description',
  'tier',
  'timeout',
  'group',
  'version',
  'sideEffects',
  'capabilities',
  'determinism',
  'maxMemory',
  'maxNetworkRequests',
  'maxNetworkBytes',
  'parallel',
  'tags',
  'requiresClient',
  'task',
  'strict',
  'defer',
  'examples',
  'callers',
  'flatten',
];

/** JSDoc tags accepted as options on every form; repeated list tags accumulate. */
const JSDOC_OPTION_TAGS: Record<string, keyof ToolOptions> = {
  name: 'name',
  tier: 'tier',
  timeout: 'timeout',
  group: 'group',
  version: 'version',
  sideEffects: 'sideEffects',
  sideEffect: 'sideEffects',
  capability: 'capabilities',
  capabilities: 'capabilities',
  determinism: 'determinism',
  maxMemory: 'maxMemory',
  maxNetworkRequests: 'maxNetworkRequests',
  maxNetworkBytes: 'maxNetworkBytes',
  parallel: 'parallel',
  tag: 'tags',
  tags: 'tags',
  requiresClient: 'requiresClient',
  task: 'task',
  strict: 'strict',
  defer: 'defer',
  callers: 'callers',
  caller: 'callers',
  flatten: 'flatten',
};
/** Flags written as a bare tag (`@parallel`, `@flatten`) or with `true`/`false`. */
const FLAG_OPTIONS = new Set<keyof ToolOptions>(['parallel', 'flatten', 'strict', 'defer']);
const LIST_OPTIONS = new Set<keyof ToolOptions>(['sideEffects', 'capabilities', 'tags', 'requiresClient', 'callers']);

/** Reads an options object literal; every value must be a literal, known by name. */
export function readOptionsLiteral(expression: ts.Expression | undefined, reporter: Reporter, runtimeKeys: readonly string[] = []): RawOptions {
  const options: RawOptions = new Map();
  if (!expression) return options;
  const literal = unwrap(expression);
  if (ts.isIdentifier(literal) && literal.text === 'undefined') return options;
  if (!ts.isObjectLiteralExpression(literal)) {
    reporter.report('optionNotStatic', { option: 'options' }, expression);
    return options;
  }
  for (const property of literal.properties) {
    // A source's own options (`env`, `headers`, `fuel`, ...) are read at run time, and may be any expression.
    if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && runtimeKeys.includes(property.name.text)) continue;
    if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
      reporter.report('optionNotStatic', { option: property.name?.getText() ?? '...' }, property);
      continue;
    }
    const name = property.name.text as keyof ToolOptions;
    if (!OPTION_NAMES.includes(name)) {
      reporter.report('unknownOption', { option: name, known: [...OPTION_NAMES, ...runtimeKeys].join(', ') }, property.name);
      continue;
    }
    if (name === 'examples') {
      const list = unwrap(property.initializer);
      if (ts.isArrayLiteralExpression(list)) options.set(name, { value: '', node: property.initializer, items: [...list.elements] });
      else reporter.report('optionNotStatic', { option: name }, property.initializer);
      continue;
    }
    const value = literalValue(property.initializer);
    if (value === undefined) reporter.report('optionNotStatic', { option: name }, property.initializer);
    else options.set(name, { value, node: property.initializer });
  }
  return options;
}

/** Reads `@tier read-only`, `@timeout 5s`, `@sideEffect fs-read`, ... from a tool's JSDoc. */
export function readOptionsTags(docs: DocInfo): RawOptions {
  const options: RawOptions = new Map();
  for (const tag of docs.tags) {
    if (tag.name === 'example') {
      // An `@example` that opens a JSON value (`{` or `[`) is the JSON text of one whole call, read (and reported) by
      // readExamples once the parameters are known; any other is TSDoc's usage example (`const lines = await ...`), left alone.
      if (!/^\s*[[{]/.test(tag.text)) continue;
      const previous = options.get('examples');
      options.set('examples', {
        value: [...(Array.isArray(previous?.value) ? previous.value : []), tag.text],
        node: tag.node,
        items: [...(previous?.items ?? []), tag.node],
      });
      continue;
    }
    const name = JSDOC_OPTION_TAGS[tag.name];
    if (!name) continue;
    if (LIST_OPTIONS.has(name)) {
      const items = tag.text.split(/[\s,]+/).filter(Boolean);
      const previous = options.get(name)?.value;
      options.set(name, { value: [...(Array.isArray(previous) ? previous : []), ...items], node: tag.node });
    } else if (FLAG_OPTIONS.has(name)) {
      options.set(name, { value: tag.text === '' ? true : tag.text === 'true' ? true : tag.text === 'false' ? false : tag.text, node: tag.node });
    } else {
      options.set(name, { value: /^\d+$/.test(tag.text) && name !== 'version' && name !== 'name' ? Number(tag.text) : tag.text, node: tag.node });
    }
  }
  return options;
}

/** A rejected option value: the catalogue reason (wording lives in diagnostics.ts) and its arguments. */
interface OptionProblem {
  problem: OptionReason;
  args?: Record<string, string>;
}
type OptionReason = keyof (typeof DIAGNOSTICS)['invalidOption']['reasons'];
type Checked<T> = { value: T } | OptionProblem;

const ok = <T>(value: T): Checked<T> => ({ value });
const problem = (reason: OptionReason, value?: OptionValue, args: Record<string, string> = {}): OptionProblem => ({
  problem: reason,
  args: value === undefined ? args : { value: String(value), ...args },
});

/** Merges raw options (literal over JSDoc), validates each, and fills in defaults. */
export function resolveMetadata(
  sources: RawOptions[],
  reporter: Reporter,
): { metadata: ToolMetadata; name?: string; description?: string; flatten?: true; examples?: RawOption } {
  const merged: RawOptions = new Map();
  for (const source of sources) for (const [key, entry] of source) merged.set(key, entry);
  const get = <T>(key: keyof ToolOptions, check: (value: OptionValue) => Checked<T>): T | undefined => {
    const entry = merged.get(key);
    if (!entry) return undefined;
    const result = check(entry.value);
    if ('problem' in result) {
      reporter.report(`invalidOption.${result.problem}`, { option: key, ...result.args }, entry.node);
      return undefined;
    }
    return result.value;
  };

  const tier = get<SafetyTier>('tier', (v) => oneOf(v, SAFETY_TIERS)) ?? DEFAULT_TIER;
  const timeoutMs =
    get<number>('timeout', (v) => {
      const parsed = typeof v === 'string' || typeof v === 'number' ? parseDuration(v) : undefined;
      return parsed !== undefined ? ok(parsed) : problem('notDuration', v);
    }) ?? DEFAULT_TIMEOUT_MS;
  const sideEffects =
    get<SideEffect[]>('sideEffects', (v) => {
      const list = asList(v);
      if ('problem' in list) return list;
      const bad = list.value.find((item) => !SIDE_EFFECTS.includes(item as SideEffect));
      if (bad !== undefined) return problem('notSideEffect', bad, { allowed: SIDE_EFFECTS.join(', ') });
      if (list.value.includes('none') && list.value.length > 1) return problem('noneWithOthers');
      return ok([...new Set(list.value)] as SideEffect[]);
    }) ?? [];
  const determinism = get<Determinism>('determinism', (v) => oneOf(v, DETERMINISM_LEVELS)) ?? DEFAULT_DETERMINISM;
  const metadata: ToolMetadata = {
    tier,
    timeoutMs,
    sideEffects,
    capabilities: get<string[]>('capabilities', (v) => nonEmptyList(v)) ?? [],
    determinism,
    resources: { timeoutMs },
    parallel: get<boolean>('parallel', (v) => (typeof v === 'boolean' ? ok(v) : problem('notBoolean', v))) ?? tier === 'read-only',
    tags: get<string[]>('tags', (v) => nonEmptyList(v)) ?? [],
  };
  const requiresClient = get<ClientFeature[]>('requiresClient', (v) => {
    const list = asList(v);
    if ('problem' in list) return list;
    const bad = list.value.find((item) => !CLIENT_FEATURES.includes(item as ClientFeature));
    return bad !== undefined ? problem('notOneOf', bad, { allowed: CLIENT_FEATURES.join(', ') }) : ok([...new Set(list.value)] as ClientFeature[]);
  });
  if (requiresClient && requiresClient.length > 0) metadata.requiresClient = requiresClient;
  const task = get<TaskSupport>('task', (v) => oneOf(v, TASK_SUPPORT));
  if (task) metadata.task = task;
  const group = get<string>('group', (v) => (typeof v === 'string' && /^[a-z][a-z0-9_-]{0,63}$/i.test(v) ? ok(v) : problem('notGroup', v)));
  if (group) metadata.group = group;
  const version = get<string>('version', (v) => (typeof v === 'string' && SEMVER_PATTERN.test(v) ? ok(v) : problem('notSemver', v)));
  if (version) metadata.version = version;
  const maxMemoryBytes = get<number>('maxMemory', (v) => sizeOf(v));
  if (maxMemoryBytes) metadata.resources.maxMemoryBytes = maxMemoryBytes;
  const maxRequests = get<number>('maxNetworkRequests', (v) =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? ok(v) : problem('notPositiveInteger', v),
  );
  const maxBytes = get<number>('maxNetworkBytes', (v) => sizeOf(v));
  if (maxRequests || maxBytes) {
    metadata.resources.network = {};
    if (maxRequests) metadata.resources.network.maxRequests = maxRequests;
    if (maxBytes) metadata.resources.network.maxBytes = maxBytes;
  }
  const name = get<string>('name', (v) => (typeof v === 'string' ? ok(v) : problem('nameNotString')));
  const description = get<string>('description', (v) => (typeof v === 'string' && v.trim() ? ok(v.trim()) : problem('emptyDescription')));
  const flatten = get<boolean>('flatten', (v) => (typeof v === 'boolean' ? ok(v) : problem('notBoolean', v)));
  // Defaults are left out of the declaration (strict on, not deferred, the model alone calls), so declarations of
  // tools that use none of these settings stay as they were.
  if (get<boolean>('strict', (v) => (typeof v === 'boolean' ? ok(v) : problem('notBoolean', v))) === false) metadata.strict = false;
  if (get<boolean>('defer', (v) => (typeof v === 'boolean' ? ok(v) : problem('notBoolean', v)))) metadata.defer = true;
  const callers = get<ToolCaller[]>('callers', (v) => {
    const list = asList(v);
    if ('problem' in list) return list;
    const bad = list.value.find((item) => !TOOL_CALLERS.includes(item as ToolCaller));
    if (bad !== undefined) return problem('notOneOf', bad, { allowed: TOOL_CALLERS.join(', ') });
    return list.value.length === 0 ? problem('noCallers') : ok(TOOL_CALLERS.filter((caller) => list.value.includes(caller)));
  });
  if (callers && !(callers.length === 1 && callers[0] === 'direct')) metadata.callers = callers;
  const examples = merged.get('examples');
  return {
    metadata,
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(flatten ? { flatten: true as const } : {}),
    ...(examples ? { examples } : {}),
  };
}

function oneOf<T extends string>(value: OptionValue, allowed: readonly T[]): Checked<T> {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? ok(value as T)
    : problem('notOneOf', value, { allowed: allowed.join(', ') });
}

function asList(value: OptionValue): Checked<string[]> {
  if (Array.isArray(value)) return ok(value);
  if (typeof value === 'string') return ok(value.split(/[\s,]+/).filter(Boolean));
  return problem('notList');
}

function nonEmptyList(value: OptionValue): Checked<string[]> {
  const list = asList(value);
  if ('problem' in list) return list;
  return list.value.some((item) => item.trim() === '') ? problem('emptyListItem') : list;
}

function sizeOf(value: OptionValue): Checked<number> {
  const parsed = typeof value === 'string' || typeof value === 'number' ? parseSize(value) : undefined;
  return parsed !== undefined ? ok(parsed) : problem('notSize', value);
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) {
    current = current.expression;
  }
  return current;
}

function literalValue(expression: ts.Expression): OptionValue | undefined {
  const node = unwrap(expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ''));
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((element) => literalValue(element));
    return items.every((item): item is string => typeof item === 'string') ? items : undefined;
  }
  return undefined;
}

export { unwrap as unwrapExpression };
