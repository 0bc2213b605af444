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
      case 'default': notes.push(`default: ${show(value as JsonValue)}`); break;
      case 'examples': notes.push(`e.g. ${(value as JsonValue[]).map(show).join(', ')}`); break;
      case 'deprecated': if (value === true) notes.push('deprecated'); break;
      case 'minLength': notes.push(`at least ${String(value)} character${value === 1 ? '' : 's'}`); break;
      case 'maxLength': notes.push(`at most ${String(value)} characters`); break;
      case 'minItems': notes.push(`at least ${String(value)} item${value === 1 ? '' : 's'}`); break;
      case 'maxItems': notes.push(`at most ${String(value)} items`); break;
      case 'uniqueItems': if (value === true) notes.push('items must be unique'); break;
      case 'pattern': notes.push(`must match /${String(value)}/`); break;
      case 'format': notes.push(`format: ${String(value)}`); break;
      case 'minimum': notes.push(`≥ ${String(value)}`); break;
      case 'maximum': notes.push(`≤ ${String(value)}`); break;
      case 'exclusiveMinimum': notes.push(`> ${String(value)}`); break;
      case 'exclusiveMaximum': notes.push(`< ${String(value)}`); break;
      case 'multipleOf': notes.push(`a multiple of ${String(value)}`); break;
      case 'title': break;
      default: notes.push(`${keyword}: ${show(value as JsonValue)}`);
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
