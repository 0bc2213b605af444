import type { JsonSchema, JsonValue } from '@toolwright/schema';

/**
 * Keywords a provider's dialect cannot carry, written into the description instead, so the model
 * still learns them: `(default: 10; at most 80 characters)`.
 */
export function describeDropped(schema: JsonSchema, keywords: readonly (keyof JsonSchema)[]): string[] {
  const notes: string[] = [];
  for (const keyword of keywords) {
    const value = schema[keyword];
    if (value === undefined) continue;
    switch (keyword) {
      case 'default':
        notes.push(`default: ${show(value as JsonValue)}`);
        break;
      case 'examples':
        notes.push(`e.g. ${(value as JsonValue[]).map(show).join(', ')}`);
        break;
      case 'deprecated':
        if (value === true) notes.push('deprecated');
        break;
      case 'minLength':
        notes.push(`at least ${text(value)} character${value === 1 ? '' : 's'}`);
        break;
      case 'maxLength':
        notes.push(`at most ${text(value)} characters`);
        break;
      case 'minItems':
        notes.push(`at least ${text(value)} item${value === 1 ? '' : 's'}`);
        break;
      case 'maxItems':
        notes.push(`at most ${text(value)} items`);
        break;
      case 'uniqueItems':
        if (value === true) notes.push('items must be unique');
        break;
      case 'pattern':
        notes.push(`must match /${text(value)}/`);
        break;
      case 'format':
        notes.push(`format: ${text(value)}`);
        break;
      case 'minimum':
        notes.push(`≥ ${text(value)}`);
        break;
      case 'maximum':
        notes.push(`≤ ${text(value)}`);
        break;
      case 'exclusiveMinimum':
        notes.push(`> ${text(value)}`);
        break;
      case 'exclusiveMaximum':
        notes.push(`< ${text(value)}`);
        break;
      case 'multipleOf':
        notes.push(`a multiple of ${text(value)}`);
        break;
      case 'title':
        break;
      default:
        notes.push(`${keyword}: ${show(value as JsonValue)}`);
    }
  }
  return notes;
}

/** A description with notes appended in parentheses. */
export function withNotes(description: string | undefined, notes: readonly string[]): string | undefined {
  if (notes.length === 0) return description;
  const suffix = `(${notes.join('; ')})`;
  return description ? `${description} ${suffix}` : suffix;
}

function show(value: JsonValue): string {
  return JSON.stringify(value);
}

/** A number or string as itself (`at most 80 characters`, `/^a+$/`); anything else as its JSON. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : show(value as JsonValue);
}
