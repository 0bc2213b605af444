import type { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import type { DocInfo } from '../jsdoc-reader.js';
import type { DefinitionRegistry, SharedDefinitions } from './definition-registry.js';
import type { TypeMapper } from './type-mapper.js';

/** What a cached build may have changed: the reports made so far, and the root schema's definitions. */
export interface CacheTracking {
  reports(): number;
  definitions: DefinitionRegistry;
}

interface Entry {
  schema: JsonSchema;
  /** The `$defs` entries the schema's `$ref`s point to (recursive types met inside it). */
  uses: SharedDefinitions;
}

/**
 * Schemas of types already mapped in one program, by type identity, so an interface shared by many
 * tools is walked once rather than at every use. A result is kept only when it is the same wherever
 * the type is used: nothing was reported while mapping it (messages name the path of the first use),
 * it met none of the types being mapped further up or already defined in the root schema, and every
 * `$ref` in it points to a definition made while mapping it (a recursive type inside it). Such
 * definitions are kept with the schema and added to the `$defs` of each root schema it is used in,
 * where mapping afresh would give the same (see `DefinitionRegistry.adopt`). Kept schemas are frozen:
 * users copy before they change one.
 */
export class SchemaCache {
  private readonly entries = new Map<ts.Type, Entry>();
  /** The mapper each type goes to, position aside (see `mapperAt`): `null` when none supports it. */
  private readonly mappers = new Map<ts.Type, TypeMapper | null>();
  hits = 0;

  /** Kept schemas with the docs of a named type applied, by schema and docs. */
  private readonly documented = new WeakMap<JsonSchema, Map<DocInfo, JsonSchema>>();

  /**
   * `document()`, which applies `docs` to the kept (frozen) `schema`, once per program: the result is
   * kept, frozen, when nothing was reported (a report names the position of its use, so it is made again).
   */
  withDocs(schema: JsonSchema, docs: DocInfo, document: () => JsonSchema, tracking: Pick<CacheTracking, 'reports'>): JsonSchema {
    let byDocs = this.documented.get(schema);
    const known = byDocs?.get(docs);
    if (known) return known;
    const reports = tracking.reports();
    const result = document();
    if (tracking.reports() !== reports) return result;
    if (!byDocs) this.documented.set(schema, (byDocs = new Map<DocInfo, JsonSchema>()));
    byDocs.set(docs, deepFreeze(result));
    return result;
  }

  /** The mapper `choose` picks for `type`, asked once per program. */
  mapperOf(type: ts.Type, choose: () => TypeMapper | undefined): TypeMapper | undefined {
    let mapper = this.mappers.get(type);
    if (mapper === undefined) this.mappers.set(type, (mapper = choose() ?? null));
    return mapper ?? undefined;
  }

  get(type: ts.Type, build: () => JsonSchema, tracking: CacheTracking): JsonSchema {
    const known = this.entries.get(type);
    if (known && tracking.definitions.adopt(known.uses)) {
      this.hits++;
      return known.schema;
    }
    const reports = tracking.reports();
    const mark = tracking.definitions.mark();
    const schema = build();
    if (known || tracking.reports() !== reports) return schema;
    const uses = tracking.definitions.usedSince(mark);
    if (!uses) return schema;
    const definitions = uses.definitions.map((d) => ({ ...d, schema: deepFreeze(d.schema) }));
    const entry = { schema: deepFreeze(schema), uses: { definitions, visited: uses.visited } };
    this.entries.set(type, entry);
    return entry.schema;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
