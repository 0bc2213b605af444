import type ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';

/**
 * Schemas of types already mapped in one program, by type identity, so an interface shared by many
 * tools is walked once rather than at every use. A result is kept only when it is the same wherever
 * the type is used: nothing was reported while mapping it (messages name the path of the first use),
 * and it refers to no definition (a `$ref` points into one root schema's `$defs`). Kept schemas are
 * frozen: users copy before they change one.
 */
export class SchemaCache {
  private readonly schemas = new Map<ts.Type, JsonSchema>();
  hits = 0;

  /** `sideEffects()` counts reports and references made so far; unchanged by `build` means reusable. */
  get(type: ts.Type, build: () => JsonSchema, sideEffects: () => number): JsonSchema {
    const known = this.schemas.get(type);
    if (known) {
      this.hits++;
      return known;
    }
    const before = sideEffects();
    const schema = build();
    if (sideEffects() !== before) return schema;
    const frozen = deepFreeze(schema);
    this.schemas.set(type, frozen);
    return frozen;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
