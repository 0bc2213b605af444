import type { JsonSchema, ParametersSchema } from '@toolwright/schema';

/** Keywords Anthropic's strict tool use (structured outputs) does not accept; a schema with one is sent without `strict`. */
const UNSUPPORTED: readonly (keyof JsonSchema)[] = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'prefixItems',
];
/** The string formats strict tool use knows. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
/** Regular expression features strict tool use's patterns lack: backreferences, lookaround, word boundaries. */
const UNSUPPORTED_PATTERN = /\\[1-9bBk]|\(\?<?[=!]/;

/**
 * Why a parameters schema has no strict form in Anthropic's dialect, as `keyword at $.path`; undefined when it has.
 * Strict tool use takes a subset of JSON Schema: every object closed (`additionalProperties: false`), no numeric
 * or string-length bounds, `minItems` of 0 or 1 only, no tuples, no "any value", the listed formats, simple patterns, no
 * recursion.
 * @example anthropicStrictObstacle({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, ... }) // 'minimum at $.n'
 */
export function anthropicStrictObstacle(schema: ParametersSchema): string | undefined {
  const defs = schema.$defs ?? {};
  const visit = (node: JsonSchema, path: string, refs: readonly string[]): string | undefined => {
    if (node.$ref !== undefined) {
      const name = node.$ref.replace(/^#\/\$defs\//, '');
      if (refs.includes(name)) return `recursive $ref ${name} at ${path}`;
      const target = defs[name];
      return target ? visit(target, path, [...refs, name]) : undefined;
    }
    const keyword = UNSUPPORTED.find((key) => node[key] !== undefined);
    if (keyword) return `${keyword} at ${path}`;
    if (node.minItems !== undefined && node.minItems > 1) return `minItems at ${path}`;
    if (node.format !== undefined && !FORMATS.has(node.format)) return `format ${node.format} at ${path}`;
    if (node.pattern !== undefined && UNSUPPORTED_PATTERN.test(node.pattern)) return `pattern at ${path}`;
    const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
    if (types.length === 0 && !node.anyOf && node.enum === undefined && node.const === undefined) return `any JSON value at ${path}`;
    if ((types.includes('object') || node.properties) && node.additionalProperties !== false) return `open object at ${path}`;
    for (const [key, property] of Object.entries(node.properties ?? {})) {
      const found = visit(property, `${path}.${key}`, refs);
      if (found) return found;
    }
    if (node.items && typeof node.items === 'object') {
      const found = visit(node.items, `${path}[]`, refs);
      if (found) return found;
    }
    for (const member of node.anyOf ?? []) {
      const found = visit(member, path, refs);
      if (found) return found;
    }
    return undefined;
  };
  return visit(schema, '$', []);
}
