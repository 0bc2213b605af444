import fs from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '@toolwright/schema';

/** Where the generated schema lives: the package root, two levels above `src/config` and `dist/config`. */
export const CONFIG_SCHEMA_FILE = path.join(__dirname, '..', '..', 'toolwright.config.schema.json');

let cached: JsonSchema | undefined;

/**
 * The JSON Schema of `toolwright.config.json`, generated from `ToolwrightConfig` (see
 * tools/config-schema). `$id` and `$schema` are dropped: the validator compiles it as a plain schema.
 */
export function configSchema(): JsonSchema {
  if (!cached) {
    const {
      $id: _id,
      $schema: _schema,
      ...schema
    } = JSON.parse(fs.readFileSync(CONFIG_SCHEMA_FILE, 'utf8')) as JsonSchema & { $id?: string; $schema?: string };
    cached = schema;
  }
  return cached;
}

/** The schema node for the value at a JSON path (`$.shell.allow[0]`), following `properties`, `items` and every `anyOf` branch. */
export function schemaNodesAt(root: JsonSchema, keys: readonly (string | number)[]): JsonSchema[] {
  let nodes = branches(root);
  for (const key of keys) {
    nodes = nodes.flatMap((node) => {
      const child = typeof key === 'number' ? node.items : node.properties?.[key];
      return child && typeof child === 'object' && !Array.isArray(child) ? branches(child) : [];
    });
  }
  return nodes;
}

function branches(node: JsonSchema): JsonSchema[] {
  return Array.isArray(node.anyOf) ? node.anyOf.flatMap(branches) : [node];
}
