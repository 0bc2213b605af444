import { isDeepStrictEqual } from 'node:util';
import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';

/** How a declaration changed between two manifests; `breaking` ones can refuse a call that was valid before. */
export type ChangeKind =
  | 'tool-removed'
  | 'tool-added'
  | 'parameter-removed'
  | 'required-parameter-added'
  | 'optional-parameter-added'
  | 'made-required'
  | 'made-optional'
  | 'type-narrowed'
  | 'type-widened'
  | 'enum-value-removed'
  | 'enum-value-added'
  | 'constraint-tightened'
  | 'constraint-loosened'
  | 'constraint-changed'
  | 'union-member-removed'
  | 'union-member-added'
  | 'description-changed'
  | 'result-removed'
  | 'result-added'
  | 'result-changed'
  | 'metadata-changed';

/** What a change is about: the tool as a whole, a parameter (the caller's side) or the result (the consumer's side). */
export type ChangeSide = 'tool' | 'parameters' | 'returns';

export interface DeclarationChange {
  tool: string;
  /** Where in the parameters: `$.limit`, `$.tags[]`; in the result: `returns.items[]`; `$` for the tool itself. */
  path: string;
  kind: ChangeKind;
  side: ChangeSide;
  breaking: boolean;
  /** What changed, e.g. `maximum 100 → 50`, `"string"`. */
  detail?: string;
}

const BREAKING: ReadonlySet<ChangeKind> = new Set([
  'tool-removed',
  'parameter-removed',
  'required-parameter-added',
  'made-required',
  'type-narrowed',
  'enum-value-removed',
  'constraint-tightened',
  'constraint-changed',
  'union-member-removed',
]);
/**
 * The same schema changes read from the consumer's side of a result: what it may now receive that it did not expect
 * (a wider type, a new enum value or union member, a looser bound) or no longer receives (a property removed or made
 * optional, no result at all) breaks code that reads it; a narrower result does not.
 */
const BREAKING_RESULT: ReadonlySet<ChangeKind> = new Set([
  'result-removed',
  'result-changed',
  'parameter-removed',
  'made-optional',
  'type-widened',
  'enum-value-added',
  'constraint-loosened',
  'constraint-changed',
  'union-member-added',
]);
/** Safety tiers in rising order: a tool whose tier rose may now need approval (or be refused) where it ran before. */
const TIER_ORDER = ['read-only', 'side-effecting', 'privileged'];
/** Determinism in falling order: a tool that became less deterministic is no longer cached or replayed as it was. */
const DETERMINISM_ORDER = ['pure', 'deterministic', 'maybe', 'non-deterministic'];
/** Bounds that tighten as they rise (`minimum`) or fall (`maximum`). */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const;
/** Keywords where any new or different value may refuse what passed before. */
const RESTRICTIONS = ['pattern', 'format', 'multipleOf', 'const'] as const;

/**
 * The changes from the `before` manifest (the one committed) to the `after` declarations, per tool. Parameters are
 * judged from the caller's side: a removed tool or parameter, a new required parameter, a property made required, a
 * type or enum value removed and a tighter constraint break calls that were valid; new optional parameters, widened
 * types and descriptions do not. The result is judged from the consumer's side (`BREAKING_RESULT`): a result that may
 * now hold what it could not, or lacks what it had, breaks code that reads it. Metadata: a higher safety tier (calls
 * may now need approval) and a lower determinism (no longer cached or replayed) are breaking; other changed fields are
 * named. `$ref`s are followed through each side's own `$defs`.
 */
export function declarationChanges(before: readonly ToolDeclaration[], after: readonly ToolDeclaration[]): DeclarationChange[] {
  const changes: DeclarationChange[] = [];
  const next = new Map(after.map((d) => [d.name, d]));
  const previous = new Map(before.map((d) => [d.name, d]));
  for (const old of before) {
    const current = next.get(old.name);
    if (!current) {
      changes.push(change(old.name, '$', 'tool-removed'));
      continue;
    }
    if (old.description !== current.description) changes.push(change(old.name, '$', 'description-changed'));
    compareSchemas(old.name, old.parameters, current.parameters, changes, 'parameters');
    compareResults(old, current, changes);
    compareMetadata(old, current, changes);
  }
  for (const d of after) if (!previous.has(d.name)) changes.push(change(d.name, '$', 'tool-added'));
  return changes;
}

function change(tool: string, path: string, kind: ChangeKind, detail?: string, side: ChangeSide = path === '$' ? 'tool' : 'parameters'): DeclarationChange {
  const breaking = side === 'returns' ? BREAKING_RESULT.has(kind) : BREAKING.has(kind);
  return { tool, path, kind, side, breaking, ...(detail !== undefined ? { detail } : {}) };
}

/** The result: its schema compared from the consumer's side, or gone (`Promise<void>`, content blocks) or new. */
function compareResults(old: ToolDeclaration, current: ToolDeclaration, changes: DeclarationChange[]): void {
  const shape = (d: ToolDeclaration) => (d.returns ? 'JSON' : d.returnsContent ? 'content blocks' : 'nothing');
  if (old.returns && current.returns) return compareSchemas(old.name, old.returns, current.returns, changes, 'returns');
  if (shape(old) === shape(current)) return;
  const kind: ChangeKind = shape(old) === 'nothing' ? 'result-added' : shape(current) === 'nothing' ? 'result-removed' : 'result-changed';
  changes.push(change(old.name, 'returns', kind, `${shape(old)} → ${shape(current)}`, 'returns'));
}

/** The metadata a host acts on: tier and determinism judged (see `declarationChanges`), the rest named when changed. */
function compareMetadata(old: ToolDeclaration, current: ToolDeclaration, changes: DeclarationChange[]): void {
  const before = old.metadata as unknown as Record<string, unknown>;
  const after = current.metadata as unknown as Record<string, unknown>;
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [a, b] = [before[field], after[field]];
    if (isDeepStrictEqual(a, b)) continue;
    const breaking = metadataBreaks(field, a, b);
    changes.push({ tool: old.name, path: `metadata.${field}`, kind: 'metadata-changed', side: 'tool', breaking, detail: `${show(a)} → ${show(b)}` });
  }
}

/**
 * Whether a metadata change can refuse or stop a call that worked before: a higher tier (approval), a lower
 * determinism (no longer cached or replayed), a capability or client feature newly required, the model no longer a
 * caller (`callers` without `direct`), a shorter timeout.
 */
function metadataBreaks(field: string, a: unknown, b: unknown): boolean {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  switch (field) {
    case 'tier':
      return TIER_ORDER.indexOf(String(b)) > TIER_ORDER.indexOf(String(a));
    case 'determinism':
      return DETERMINISM_ORDER.indexOf(String(b)) > DETERMINISM_ORDER.indexOf(String(a));
    case 'capabilities':
    case 'requiresClient':
      return list(b).some((item) => !list(a).includes(item));
    case 'callers': {
      const callers = (value: unknown) => (value === undefined ? ['direct'] : list(value));
      return callers(b).length < callers(a).length || callers(a).some((caller) => !callers(b).includes(caller));
    }
    case 'timeoutMs':
      return typeof a === 'number' && typeof b === 'number' && b < a;
    default:
      return false;
  }
}

function compareSchemas(tool: string, before: JsonSchema, after: JsonSchema, changes: DeclarationChange[], side: 'parameters' | 'returns'): void {
  const beforeDefs = before.$defs ?? {};
  const afterDefs = after.$defs ?? {};
  const seen = new Set<string>();
  const resolve = (node: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema => {
    if (node.$ref === undefined) return node;
    const target = defs[node.$ref.replace(/^#\/\$defs\//, '')];
    return target ? { ...target, ...(node.description !== undefined ? { description: node.description } : {}) } : node;
  };
  const push = (path: string, kind: ChangeKind, detail?: string) =>
    changes.push(change(tool, root === '$' ? path : path.replace(/^\$/, root), kind, detail, side));
  const root = side === 'returns' ? 'returns' : '$';

  const walk = (rawOld: JsonSchema, rawNew: JsonSchema, path: string): void => {
    // A recursive type is compared once per pair of references.
    const pair = `${rawOld.$ref ?? ''}\u0000${rawNew.$ref ?? ''}`;
    if (rawOld.$ref !== undefined || rawNew.$ref !== undefined) {
      if (seen.has(pair)) return;
      seen.add(pair);
    }
    const old = resolve(rawOld, beforeDefs);
    const now = resolve(rawNew, afterDefs);
    if (isDeepStrictEqual(old, now)) return;
    if (path !== '$' && old.description !== now.description) push(path, 'description-changed');

    const oldTypes = typesOf(old);
    const newTypes = typesOf(now);
    if (oldTypes.length > 0 && newTypes.length > 0) {
      const removed = oldTypes.filter((t) => !newTypes.includes(t) && !(t === 'integer' && newTypes.includes('number')));
      const added = newTypes.filter((t) => !oldTypes.includes(t) && !(t === 'integer' && oldTypes.includes('number')));
      if (removed.length > 0) push(path, 'type-narrowed', `${removed.join(', ')} no longer accepted`);
      if (added.length > 0) push(path, 'type-widened', `${added.join(', ')} now accepted`);
    } else if (isAny(old) && !isAny(now)) push(path, 'type-narrowed', 'any value no longer accepted');
    else if (!isAny(old) && isAny(now)) push(path, 'type-widened', 'any value now accepted');
    if (old.enum || now.enum) {
      if (!now.enum) push(path, 'type-widened', 'no longer an enum');
      else if (!old.enum) push(path, 'type-narrowed', `now one of ${now.enum.map((v) => JSON.stringify(v)).join(', ')}`);
      else {
        for (const v of old.enum) if (!now.enum.some((w) => isDeepStrictEqual(v, w))) push(path, 'enum-value-removed', JSON.stringify(v));
        for (const v of now.enum) if (!old.enum.some((w) => isDeepStrictEqual(v, w))) push(path, 'enum-value-added', JSON.stringify(v));
      }
    }
    for (const keyword of LOWER_BOUNDS) bound(path, keyword, old[keyword], now[keyword], (a, b) => b > a);
    for (const keyword of UPPER_BOUNDS) bound(path, keyword, old[keyword], now[keyword], (a, b) => b < a);
    for (const keyword of RESTRICTIONS) {
      const [a, b] = [old[keyword], now[keyword]];
      if (isDeepStrictEqual(a, b)) continue;
      // Another value (a const, pattern or format swapped) refuses what passed before and passes what did not: breaking either way.
      const kind: ChangeKind = b === undefined ? 'constraint-loosened' : a === undefined ? 'constraint-tightened' : 'constraint-changed';
      push(path, kind, `${keyword} ${show(a)} → ${show(b)}`);
    }
    if (old.uniqueItems !== now.uniqueItems) push(path, now.uniqueItems ? 'constraint-tightened' : 'constraint-loosened', 'uniqueItems');
    if (old.additionalProperties !== false && now.additionalProperties === false && old.properties)
      push(path, 'constraint-tightened', 'no other properties accepted');
    if (old.additionalProperties === false && now.additionalProperties !== false && now.properties)
      push(path, 'constraint-loosened', 'other properties accepted');
    if (typeof old.additionalProperties === 'object' && typeof now.additionalProperties === 'object')
      walk(old.additionalProperties, now.additionalProperties, `${path}{}`);

    if (old.anyOf || now.anyOf) {
      const a = old.anyOf ?? [old];
      const b = now.anyOf ?? [now];
      if (old.anyOf && now.anyOf && a.length === b.length) a.forEach((member, i) => walk(member, b[i]!, `${path}|${i}`));
      else {
        for (const member of a) if (!b.some((m) => isDeepStrictEqual(m, member))) push(path, 'union-member-removed', JSON.stringify(member));
        for (const member of b) if (!a.some((m) => isDeepStrictEqual(m, member))) push(path, 'union-member-added', JSON.stringify(member));
      }
    }
    if (old.items && now.items) walk(old.items, now.items, `${path}[]`);
    if (old.prefixItems && now.prefixItems) old.prefixItems.forEach((member, i) => now.prefixItems![i] && walk(member, now.prefixItems![i], `${path}[${i}]`));

    if (old.properties || now.properties) {
      const oldProperties = old.properties ?? {};
      const newProperties = now.properties ?? {};
      const oldRequired = new Set(old.required ?? []);
      const newRequired = new Set(now.required ?? []);
      for (const [name, property] of Object.entries(oldProperties)) {
        const at = `${path}.${name}`;
        if (!(name in newProperties)) {
          push(at, 'parameter-removed');
          continue;
        }
        if (!oldRequired.has(name) && newRequired.has(name)) push(at, 'made-required');
        if (oldRequired.has(name) && !newRequired.has(name)) push(at, 'made-optional');
        walk(property, newProperties[name]!, at);
      }
      for (const name of Object.keys(newProperties)) {
        if (!(name in oldProperties)) push(`${path}.${name}`, newRequired.has(name) ? 'required-parameter-added' : 'optional-parameter-added');
      }
    }
  };

  const bound = (path: string, keyword: string, a: unknown, b: unknown, tighter: (a: number, b: number) => boolean) => {
    if (a === b) return;
    if (typeof b !== 'number') return push(path, 'constraint-loosened', `${keyword} ${show(a)} → none`);
    const tightened = typeof a !== 'number' || tighter(a, b);
    push(path, tightened ? 'constraint-tightened' : 'constraint-loosened', `${keyword} ${show(a)} → ${show(b)}`);
  };

  walk(before, after, '$');
}

function typesOf(node: JsonSchema): string[] {
  if (node.type === undefined) return [];
  return Array.isArray(node.type) ? [...node.type] : [node.type];
}

/** A schema that accepts any JSON value (no type, union, enum, constant or reference). */
function isAny(node: JsonSchema): boolean {
  return node.type === undefined && !node.anyOf && !node.enum && node.const === undefined && node.$ref === undefined;
}

function show(value: unknown): string {
  return value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** One change as a line of `emit --check`'s message: `add_numbers $.c: required parameter added`, `get_note returns.title: property removed`. */
export function formatChange(change: DeclarationChange): string {
  const what = change.side === 'returns' ? change.kind.replace('parameter', 'property').replace(/-/g, ' ') : change.kind.replace(/-/g, ' ');
  return `${change.tool}${change.path === '$' ? '' : ` ${change.path}`}: ${what}${change.detail !== undefined ? ` (${change.detail})` : ''}`;
}
