import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '@toolwright/schema';

/** The JSON Schema dialects a Toolwright schema converts to (`StandardJSONSchemaV1.Options.target`). */
const JSON_SCHEMA_TARGETS: readonly StandardJSONSchemaV1.Target[] = ['draft-2020-12', 'draft-07'];

/**
 * A declaration's schema (the JSON Schema 2020-12 subset the transformer emits) in the dialect a Standard JSON
 * Schema consumer asks for, as a fresh copy the consumer may change. `draft-07` (what the AI SDK asks for) renames
 * `$defs` to `definitions` (and the `$ref`s into it), and writes `prefixItems` as an `items` list with the rest
 * in `additionalItems`. Any other target (`openapi-3.0`) throws, as the Standard JSON Schema spec asks.
 * @example jsonSchemaFor({ type: 'array', prefixItems: [{ type: 'string' }], items: false }, 'draft-07')
 *   // { type: 'array', items: [{ type: 'string' }], additionalItems: false }
 */
export function jsonSchemaFor(schema: JsonSchema, target: StandardJSONSchemaV1.Target): Record<string, unknown> {
  if (target === 'draft-2020-12') return structuredClone(schema) as Record<string, unknown>;
  if (target === 'draft-07') return toDraft07(schema);
  throw new RangeError(
    `Toolwright schemas convert to JSON Schema ${JSON_SCHEMA_TARGETS.map((t) => `"${t}"`).join(' and ')}, not ${target === undefined ? 'an unnamed target' : JSON.stringify(target)}`,
  );
}

function toDraft07(schema: JsonSchema): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const [keyword, value] of Object.entries(schema) as [keyof JsonSchema, unknown][]) {
    switch (keyword) {
      case '$defs':
        entries.push(['definitions', mapSchemas(value as Record<string, JsonSchema>)]);
        break;
      case '$ref':
        entries.push(['$ref', typeof value === 'string' && value.startsWith('#/$defs/') ? `#/definitions/${value.slice('#/$defs/'.length)}` : value]);
        break;
      case 'properties':
        entries.push(['properties', mapSchemas(value as Record<string, JsonSchema>)]);
        break;
      case 'anyOf':
        entries.push(['anyOf', (value as JsonSchema[]).map(toDraft07)]);
        break;
      case 'additionalProperties':
        entries.push(['additionalProperties', typeof value === 'object' && value !== null ? toDraft07(value) : value]);
        break;
      case 'prefixItems':
        entries.push(['items', (value as JsonSchema[]).map(toDraft07)]);
        break;
      case 'items': {
        // Beside `prefixItems` (draft-07's `items` list), `items` is the schema of the items after the list.
        const items = value === false ? false : toDraft07(value as JsonSchema);
        entries.push([schema.prefixItems ? 'additionalItems' : 'items', items]);
        break;
      }
      default:
        entries.push([keyword, structuredClone(value)]);
    }
  }
  // fromEntries defines each key as an own property: a property named `__proto__` stays a property.
  return Object.fromEntries(entries);
}

function mapSchemas(schemas: Record<string, JsonSchema>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toDraft07(schema)]));
}
