import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';

/** The searchable text of one tool, one field per kind of text (each field has its own weight). */
export interface ToolSearchText {
  name: string;
  description: string;
  parameters: string;
  tags: string;
  group: string;
}

/** Nested objects deeper than this add no words: a tool's top-level parameters say what it is about. */
const MAX_DEPTH = 3;

export function toolSearchText(declaration: ToolDeclaration): ToolSearchText {
  const words: string[] = [];
  parameterWords(declaration.parameters, 0, words);
  return {
    name: declaration.name,
    description: declaration.description,
    parameters: words.join(' '),
    tags: declaration.metadata.tags.join(' '),
    group: declaration.metadata.group ?? '',
  };
}

/** Names, descriptions and string enum values of the properties of `schema`, and of the objects within it (array items, unions). */
function parameterWords(schema: JsonSchema | false | undefined, depth: number, words: string[]): void {
  if (!schema || depth > MAX_DEPTH) return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    words.push(name);
    if (property.description) words.push(property.description);
    for (const value of property.enum ?? []) if (typeof value === 'string') words.push(value);
    parameterWords(property, depth + 1, words);
  }
  parameterWords(schema.items, depth + 1, words);
  for (const member of schema.anyOf ?? []) parameterWords(member, depth + 1, words);
}
