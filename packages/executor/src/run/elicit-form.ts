import { hasTerminalControls } from '../terminal-safe.js';
import type { ElicitAnswer, ElicitField, ElicitSchema } from '@toolwright/tool';

/** Most fields one form may ask for, and the longest question: a person reads it. */
export const ELICIT_LIMITS = { fields: 32, messageChars: 4_000 } as const;

/**
 * Why a tool's form is not one a person can be asked to fill in (MCP elicitation's flat form: an object of strings,
 * numbers, integers, booleans and string choices, `required` naming its fields), or undefined when it is. A tool's
 * mistake, reported to the tool as an error.
 */
export function formProblem(message: unknown, schema: unknown): string | undefined {
  if (typeof message !== 'string' || message.trim() === '') return 'the question is empty';
  if (message.length > ELICIT_LIMITS.messageChars) return `the question is ${message.length} characters long, over ${ELICIT_LIMITS.messageChars}`;
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object')
    return 'the form is not { type: "object", properties }';
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return 'the form has no properties';
  const names = Object.keys(properties);
  if (names.length === 0) return 'the form asks for nothing';
  if (names.some((name) => name === '__proto__' || name === 'constructor' || name === 'prototype' || hasTerminalControls(name) || /[\t\n]/.test(name)))
    return 'a field has a name a form cannot hold (__proto__, constructor, prototype, a control character)';
  if (names.length > ELICIT_LIMITS.fields) return `the form has ${names.length} fields, over ${ELICIT_LIMITS.fields}`;
  for (const name of names) {
    const problem = fieldProblem((properties as Record<string, unknown>)[name]);
    if (problem) return `field '${name}' ${problem}`;
  }
  if (required !== undefined && (!Array.isArray(required) || required.some((name) => typeof name !== 'string' || !names.includes(name))))
    return '`required` must list fields of the form';
  return undefined;
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function fieldProblem(field: unknown): string | undefined {
  if (typeof field !== 'object' || field === null) return 'is not a field';
  const { type, enum: choices, oneOf, title, description, format, minimum, maximum, minLength, maxLength } = field as Record<string, unknown>;
  for (const [name, text] of [
    ['title', title],
    ['description', description],
  ] as const) {
    if (text === undefined) continue;
    if (typeof text !== 'string') return `has a ${name} that is not text`;
    if (hasTerminalControls(text)) return `has a control character in its ${name}`;
  }
  // Only the keywords of MCP's form fields: anything else would reach the client's user unchecked.
  const unknown = Object.keys(field).find((key) => !FIELD_KEYWORDS.has(key) || (key === 'items' && type !== 'array'));
  if (unknown !== undefined) return `has ${JSON.stringify(unknown)}, which a form field does not hold`;
  const defaultProblem = defaultValueProblem(field as Record<string, unknown>);
  if (defaultProblem) return defaultProblem;
  if (type === 'array') return multiSelectProblem(field as Record<string, unknown>);
  if ((field as Record<string, unknown>).anyOf !== undefined)
    return 'has `anyOf` choices, which only a multi-select’s `items` hold (a single choice takes `oneOf`)';
  if (choices !== undefined || oneOf !== undefined) {
    if (type !== 'string') return 'has choices but is not a string';
    return choiceListProblem(field as Record<string, unknown>);
  }
  if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean')
    return `has type ${JSON.stringify(type)}: a form holds strings, numbers, integers, booleans, string choices and multi-selects (arrays of choices)`;
  if (format !== undefined && (type !== 'string' || !FORMATS.has(format as string)))
    return `has format ${JSON.stringify(format)}: a string may be email, uri, date or date-time`;
  for (const [name, bound] of [
    ['minimum', minimum],
    ['maximum', maximum],
    ['minLength', minLength],
    ['maxLength', maxLength],
  ] as const)
    if (bound !== undefined && !(typeof bound === 'number' && Number.isFinite(bound))) return `has a ${name} that is not a number`;
  return undefined;
}

/** The keywords a form field may hold (MCP's primitive, choice and multi-select schemas). */
const FIELD_KEYWORDS = new Set([
  'type',
  'title',
  'description',
  'default',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'enum',
  'enumNames',
  'oneOf',
  'anyOf',
  'items',
  'minItems',
  'maxItems',
]);

/** A default must be a value of its field's kind, its text free of control characters. */
function defaultValueProblem(field: Record<string, unknown>): string | undefined {
  const value = field.default;
  if (value === undefined) return undefined;
  const texts = Array.isArray(value) ? value : [value];
  if (field.type === 'array' ? !Array.isArray(value) || texts.some((text) => typeof text !== 'string') : typeof value !== jsTypeOf(field.type))
    return 'has a default that is not a value of its type';
  if (texts.some((text) => typeof text === 'string' && hasTerminalControls(text))) return 'has a control character in its default';
  return undefined;
}

function jsTypeOf(type: unknown): string {
  return type === 'integer' || type === 'number' ? 'number' : String(type);
}

/** A list of choices: `enum` (with `enumNames` titling them) or `oneOf` of `{ const, title }`. */
function choiceListProblem(list: Record<string, unknown>): string | undefined {
  const { enum: choices, enumNames, oneOf, anyOf } = list;
  if (oneOf !== undefined && anyOf !== undefined) return 'has both `oneOf` and `anyOf` choices';
  const titled = oneOf ?? anyOf;
  if (choices !== undefined && titled !== undefined) return 'has both `enum` and titled choices';
  if (titled !== undefined) {
    if (!Array.isArray(titled) || titled.length === 0) return 'has titled choices that are not a list';
    for (const choice of titled as unknown[]) {
      const { const: value, title } = (typeof choice === 'object' && choice !== null ? choice : {}) as Record<string, unknown>;
      if (typeof value !== 'string' || typeof title !== 'string') return 'has a titled choice that is not { const: string, title: string }';
      if (hasTerminalControls(value) || hasTerminalControls(title)) return 'has a control character in a choice';
    }
    return undefined;
  }
  if (!Array.isArray(choices) || choices.length === 0 || choices.some((choice) => typeof choice !== 'string')) return 'has choices that are not strings';
  if (choices.some((choice: string) => hasTerminalControls(choice))) return 'has a control character in a choice';
  if (enumNames !== undefined) {
    if (!Array.isArray(enumNames) || enumNames.length !== choices.length || enumNames.some((name) => typeof name !== 'string'))
      return 'has `enumNames` that do not title each choice';
    if (enumNames.some((name: string) => hasTerminalControls(name))) return 'has a control character in a choice';
  }
  return undefined;
}

/** A multi-select: `items` lists the choices (`{ type: 'string', enum }` or `{ anyOf: [{ const, title }] }`). */
function multiSelectProblem(field: Record<string, unknown>): string | undefined {
  const items = field.items;
  if (typeof items !== 'object' || items === null) return 'is an array without `items` listing its choices';
  const list = items as Record<string, unknown>;
  const stray = Object.keys(list).find((key) => !['type', 'enum', 'anyOf'].includes(key));
  if (stray !== undefined) return `has ${JSON.stringify(stray)} in its \`items\`, which hold only \`type\` and \`enum\`, or \`anyOf\``;
  if (list.enum !== undefined && list.type !== 'string') return "has choices whose `items` are not of type 'string'";
  if (list.enum === undefined && list.anyOf === undefined) return 'is an array whose `items` list no choices (`enum` or `anyOf`)';
  const problem = choiceListProblem(list);
  if (problem) return problem;
  for (const bound of ['minItems', 'maxItems'] as const)
    if (field[bound] !== undefined && !(Number.isInteger(field[bound]) && (field[bound] as number) >= 0)) return `has a ${bound} that is not a count`;
  return undefined;
}

/** The values a list of choices admits. */
function choicesOf(list: { enum?: readonly string[]; oneOf?: readonly { const: string }[]; anyOf?: readonly { const: string }[] }): readonly string[] {
  return list.enum ?? (list.oneOf ?? list.anyOf ?? []).map((choice) => choice.const);
}

/**
 * The answer as the tool receives it: an accepted form's content must fit the form (its required fields present,
 * each value of its field's type, a choice among the choices, no field the form did not ask for); one that does not
 * is no answer the tool can rely on, and comes back `unavailable`, saying why.
 */
export function checkedAnswer(schema: ElicitSchema, answer: unknown): ElicitAnswer<Record<string, unknown>> {
  const action = typeof answer === 'object' && answer !== null ? (answer as { action?: unknown }).action : undefined;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action === 'unavailable') {
    const message = (answer as { message?: unknown }).message;
    return { action, message: typeof message === 'string' && message !== '' ? message : 'nobody could be asked' };
  }
  if (action !== 'accept') return { action: 'unavailable', message: 'the answer was not one of accept, decline or cancel' };
  const content = (answer as { content?: unknown }).content ?? {};
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return { action: 'unavailable', message: 'the accepted answer holds no form' };
  const values = content as Record<string, unknown>;
  for (const name of schema.required ?? [])
    if (!Object.hasOwn(values, name)) return { action: 'unavailable', message: `the accepted answer leaves out '${name}'` };
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (!field) return { action: 'unavailable', message: `the accepted answer holds '${name}', which the form did not ask for` };
    if (!fits(field, value)) return { action: 'unavailable', message: `the accepted answer's '${name}' is not ${describe(field)}` };
    const outside = boundProblem(field, value);
    if (outside) return { action: 'unavailable', message: `the accepted answer's '${name}' ${outside}` };
    kept[name] = value;
  }
  return { action: 'accept', content: kept };
}

function fits(field: ElicitField, value: unknown): boolean {
  if (field.type === 'array') {
    const choices = choicesOf(field.items);
    return Array.isArray(value) && value.every((member) => typeof member === 'string' && choices.includes(member)) && new Set(value).size === value.length;
  }
  if ('enum' in field || 'oneOf' in field) return typeof value === 'string' && choicesOf(field).includes(value);
  switch (field.type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return typeof value === 'number' && Number.isFinite(value);
  }
}

function describe(field: ElicitField): string {
  const listed = (choices: readonly string[]) => choices.map((choice) => JSON.stringify(choice)).join(', ');
  if (field.type === 'array') return `a list of different choices among ${listed(choicesOf(field.items))}`;
  if ('enum' in field || 'oneOf' in field) return `one of ${listed(choicesOf(field))}`;
  return field.type === 'integer' ? 'an integer' : `a ${field.type}`;
}

/** Where a value of the right type is outside its field's bounds, length or format (checked as MCP's clients check them). */
function boundProblem(field: ElicitField, value: unknown): string | undefined {
  if (typeof value === 'number' && 'minimum' in field && field.minimum !== undefined && value < field.minimum) return `is below ${field.minimum}`;
  if (typeof value === 'number' && 'maximum' in field && field.maximum !== undefined && value > field.maximum) return `is above ${field.maximum}`;
  if (Array.isArray(value) && field.type === 'array') {
    if (field.minItems !== undefined && value.length < field.minItems) return `has fewer than ${field.minItems} choices`;
    if (field.maxItems !== undefined && value.length > field.maxItems) return `has more than ${field.maxItems} choices`;
    return undefined;
  }
  if (typeof value !== 'string' || field.type !== 'string' || 'enum' in field || 'oneOf' in field) return undefined;
  const length = [...value].length;
  if (field.minLength !== undefined && length < field.minLength) return `is shorter than ${field.minLength} characters`;
  if (field.maxLength !== undefined && length > field.maxLength) return `is longer than ${field.maxLength} characters`;
  if (field.format !== undefined && !FORMAT_TESTS[field.format](value))
    return `is not ${field.format === 'uri' ? 'a URI' : field.format === 'email' ? 'an email address' : `a ${field.format}`}`;
  return undefined;
}

const FORMAT_TESTS: Record<'email' | 'uri' | 'date' | 'date-time', (value: string) => boolean> = {
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  uri: (value) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) && !Number.isNaN(Date.parse(value)),
};
