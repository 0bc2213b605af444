/** A JSON value: what a tool receives as arguments and what its declaration may hold as `default`, `const` or `examples`. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * The subset of the JSON Schema 2020-12 vocabulary that Toolwright emits and that every provider
 * exporter knows how to lower. Anything outside it is never produced by the transformer.
 */
export interface JsonSchema {
  type?: JsonSchemaTypeName | JsonSchemaTypeName[];
  title?: string;
  description?: string;
  default?: JsonValue;
  examples?: JsonValue[];
  deprecated?: boolean;

  enum?: JsonValue[];
  const?: JsonValue;
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;

  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;

  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;

  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;

  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

/** The schema of a tool's parameters: always one closed object, one property per parameter. */
export interface ParametersSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
}

/** The keywords of {@link JsonSchema}, in the order the transformer writes them (stable output diffs cleanly). */
export const JSON_SCHEMA_KEYWORD_ORDER: readonly (keyof JsonSchema)[] = [
  'type',
  'title',
  'description',
  'deprecated',
  'enum',
  'const',
  'anyOf',
  '$ref',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'default',
  'examples',
  '$defs',
];
