import type { JsonSchema } from '@toolwright/schema';
import { formatJsonPath } from './json-path.js';
import { parseArguments, type ParseLimits } from './parse-arguments.js';

/**
 * The repairs an executor may make to arguments models commonly get wrong (`ExecutorOptions.repairArguments`;
 * `true` turns all on). Each is made only when the arguments as sent are refused, only when there is one
 * reading of what was meant, and only when nothing is lost; anything else is refused as before.
 */
export interface ArgumentRepairs {
  /** The JSON wrapped in one Markdown code fence (```json … ```), with nothing else around it. */
  codeFences?: boolean;
  /** A comma before `}` or `]` (`{"a":1,}`). */
  trailingCommas?: boolean;
  /** A JSON-encoded string where the schema wants an object or an array (`"{\"a\":1}"`). */
  encodedJson?: boolean;
  /** `"42"` where the schema wants a number or an integer, `"true"`/`"false"` where it wants a boolean. */
  scalarStrings?: boolean;
}

/** One repair made, recorded in the audit: its kind, and where (`$` for the text as a whole; `at` a position in it). */
export interface ArgumentRepair {
  kind: 'code_fence' | 'trailing_comma' | 'encoded_json' | 'scalar_string';
  path: string;
  at?: number;
}

/** The repairs turned on by the executor's option, or undefined when none is. */
export function repairsOf(option: boolean | ArgumentRepairs | undefined): Required<ArgumentRepairs> | undefined {
  if (!option) return undefined;
  const all = option === true;
  const on = (key: keyof ArgumentRepairs) => all || option[key] === true;
  const repairs = { codeFences: on('codeFences'), trailingCommas: on('trailingCommas'), encodedJson: on('encodedJson'), scalarStrings: on('scalarStrings') };
  return Object.values(repairs).some(Boolean) ? repairs : undefined;
}

const FENCE = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/;

/**
 * Argument text that did not parse, repaired: the inside of one code fence that is the whole text, and
 * commas before `}` or `]` outside strings dropped. `undefined` when there was nothing to repair, or the
 * text is ambiguous (prose around a fence, two fences, a fence inside the fence).
 */
export function repairText(text: string, repairs: Required<ArgumentRepairs>): { text: string; repairs: ArgumentRepair[] } | undefined {
  const made: ArgumentRepair[] = [];
  let current = text.trim();
  if (repairs.codeFences && current.includes('```')) {
    const fenced = FENCE.exec(current);
    if (!fenced || fenced[1]!.includes('```')) return undefined;
    current = fenced[1]!.trim();
    made.push({ kind: 'code_fence', path: '$' });
  }
  if (repairs.trailingCommas) {
    const cut = trailingCommas(current);
    for (const at of cut) made.push({ kind: 'trailing_comma', path: '$', at });
    for (const at of [...cut].reverse()) current = current.slice(0, at) + current.slice(at + 1);
  }
  return made.length > 0 ? { text: current, repairs: made } : undefined;
}

/** Positions of commas followed (after whitespace) by `}` or `]`, outside strings. */
function trailingCommas(text: string): number[] {
  const found: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === '}' || text[j] === ']') found.push(i);
    }
  }
  return found;
}

/**
 * Parsed arguments repaired against the tool's schema: a string holding JSON where an object or array is
 * wanted, a string holding a number or boolean where one is wanted — only where the schema does not also
 * allow a string, and only when the value is exact (`"4.5"` is no integer, `"1e999"` no finite number,
 * `"True"` no boolean). `undefined` when nothing was repaired.
 */
export function repairValue(
  schema: JsonSchema,
  args: Record<string, unknown>,
  repairs: Required<ArgumentRepairs>,
  limits: ParseLimits,
): { value: Record<string, unknown>; repairs: ArgumentRepair[] } | undefined {
  const made: ArgumentRepair[] = [];
  const value = repairAt(schema, args, [], { repairs, limits, made });
  return made.length > 0 ? { value: value as Record<string, unknown>, repairs: made } : undefined;
}

interface Walk {
  repairs: Required<ArgumentRepairs>;
  limits: ParseLimits;
  made: ArgumentRepair[];
}

function repairAt(schema: JsonSchema | undefined, value: unknown, keys: (string | number)[], walk: Walk): unknown {
  if (!schema || typeof schema !== 'object') return value;
  const types = typesOf(schema);
  if (typeof value === 'string' && types.length > 0 && !types.includes('string')) {
    const repaired = repairString(value, types, walk);
    if (repaired === NO_REPAIR) return value;
    walk.made.push({ kind: repaired.kind, path: formatJsonPath(keys) });
    return repairAt(schema, repaired.value, keys, walk);
  }
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    const items = schema.items as JsonSchema | undefined;
    let copy: unknown[] | undefined;
    list.forEach((item, index) => {
      const fixed = repairAt(items, item, [...keys, index], walk);
      if (fixed !== item) (copy ??= [...list])[index] = fixed;
    });
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    const properties = schema.properties ?? {};
    const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const fixed = repairAt(Object.hasOwn(properties, key) ? properties[key] : extra, item, [...keys, key], walk);
      if (fixed !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = fixed;
    }
    return copy ?? value;
  }
  return value;
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type as string | string[] | undefined;
  return (Array.isArray(type) ? type : type ? [type] : []).filter((t) => t !== 'null');
}

const NO_REPAIR = Symbol('no repair');
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const INTEGER = /^-?(0|[1-9]\d*)$/;

function repairString(text: string, types: string[], walk: Walk): { kind: ArgumentRepair['kind']; value: unknown } | typeof NO_REPAIR {
  if (walk.repairs.encodedJson && (types.includes('object') || types.includes('array'))) {
    // Read as the arguments themselves are (duplicate keys, __proto__, numbers JavaScript cannot hold):
    // wrapped as the one member of an object, which must come back as that one member.
    const parsed = parseArguments(`{"value":${text}}`, walk.limits);
    if (parsed.ok && Object.keys(parsed.value).length === 1) {
      const inner = parsed.value.value;
      if (
        (types.includes('object') && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) ||
        (types.includes('array') && Array.isArray(inner))
      ) {
        return { kind: 'encoded_json', value: inner };
      }
    }
  }
  if (!walk.repairs.scalarStrings) return NO_REPAIR;
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return { kind: 'scalar_string', value: text === 'true' };
  const wantsNumber = types.includes('number');
  if ((wantsNumber || types.includes('integer')) && NUMBER.test(text)) {
    const n = Number(text);
    const integerLiteral = INTEGER.test(text);
    if (!Number.isFinite(n) || (integerLiteral && !Number.isSafeInteger(n))) return NO_REPAIR; // it would not survive as written
    if (!wantsNumber && !integerLiteral) return NO_REPAIR; // "4.5" or "4e0" is no integer as written
    return { kind: 'scalar_string', value: n };
  }
  return NO_REPAIR;
}
