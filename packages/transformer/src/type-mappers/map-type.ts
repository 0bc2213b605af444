import type { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import { POSITION_ROLES, type DiagnosticArgs, type DiagnosticKey } from '../diagnostics.js';
import type { Reporter } from '../reporter.js';
import type { DocInfo, JsDocReader } from '../jsdoc-reader.js';
import { anyJsonMapper, objectKeywordMapper } from './any-json-mappers.js';
import { arrayLikeMapper, arrayMapper, tupleMapper } from './array-mappers.js';
import { applyDocTags } from './constraint-tags.js';
import type { DefinitionRegistry } from './definition-registry.js';
import type { SchemaCache } from './schema-cache.js';
import { booleanMapper, noJsonKeywordMapper, nullMapper, numberMapper, stringMapper } from './keyword-mappers.js';
import { literalMapper } from './literal-mapper.js';
import { dateMapper, noJsonObjectMapper, objectMapper } from './object-mappers.js';
import { taggedIntersectionMapper } from './tagged-intersection-mapper.js';
import { templateLiteralMapper } from './template-literal-mapper.js';
import type { MapContext, TypeMapper, TypePosition, UnsupportedReason } from './type-mapper.js';
import { hasDocs, namedTypeDocs, resolveSyntax } from './type-syntax.js';
import { unionMapper } from './union-mapper.js';

/**
 * The mappers, in the order they are tried. The order matters where kinds overlap:
 * - `any` and `unknown` satisfy every other test vacuously, and keywords with no JSON form are next;
 * - `boolean` is the union `true | false`, and TS enums are unions of enum literals: before `union`;
 * - a union the checker collapsed (`BuiltInRole | CustomRole` is `string`) is seen by `union` first;
 * - branded numbers and typia tags are intersections with an object part: before `object`;
 * - `Date`, functions and library classes are object types too: before `object`;
 * - tuples, arrays and interfaces that extend `Array` are object types: before `object`.
 */
export const TYPE_MAPPERS: readonly TypeMapper[] = [
  anyJsonMapper,
  noJsonKeywordMapper,
  nullMapper,
  booleanMapper,
  unionMapper,
  literalMapper,
  stringMapper,
  numberMapper,
  templateLiteralMapper,
  objectKeywordMapper,
  taggedIntersectionMapper,
  dateMapper,
  noJsonObjectMapper,
  tupleMapper,
  arrayMapper,
  arrayLikeMapper,
  objectMapper,
];

const MAX_DEPTH = 64;

export interface RootMapOptions {
  checker: ts.TypeChecker;
  reporter: Reporter;
  docs: JsDocReader;
  definitions: DefinitionRegistry;
  isLibFile: (file: ts.SourceFile) => boolean;
  isProjectFile: (file: ts.SourceFile) => boolean;
  /** Shared by every tool of the program; absent, nothing is reused. */
  cache?: SchemaCache;
}

/** The context of one position: what mappers use to map children and report problems. */
export function createMapContext(position: TypePosition, root: RootMapOptions, depth = 0): MapContext {
  return new PositionContext(position, root, depth);
}

/**
 * A `MapContext` made at every position of every signature (thousands per program): its methods live on the
 * prototype, so making one allocates a single object.
 */
class PositionContext implements MapContext {
  readonly checker: ts.TypeChecker;
  readonly docs: JsDocReader;
  readonly definitions: DefinitionRegistry;
  readonly isLibFile: (file: ts.SourceFile) => boolean;
  readonly isProjectFile: (file: ts.SourceFile) => boolean;

  constructor(
    readonly position: TypePosition,
    private readonly root: RootMapOptions,
    private readonly depth: number,
  ) {
    this.checker = root.checker;
    this.docs = root.docs;
    this.definitions = root.definitions;
    this.isLibFile = root.isLibFile;
    this.isProjectFile = root.isProjectFile;
  }

  report(key: DiagnosticKey, args: DiagnosticArgs, node?: ts.Node): void {
    this.root.reporter.report(key, args, node ?? this.position.node);
  }

  mapType(child: ts.Type, childPosition?: TypePosition): JsonSchema {
    return mapTypeAt(child, childPosition ?? this.position, this.root, this.depth + 1);
  }

  cached(type: ts.Type, build: () => JsonSchema): JsonSchema {
    const { root } = this;
    return root.cache ? root.cache.get(type, build, { reports: () => root.reporter.reports, definitions: root.definitions }) : build();
  }

  subject(type: ts.Type): DiagnosticArgs {
    return { role: POSITION_ROLES[this.position.role], path: this.position.path, type: this.checker.typeToString(type) };
  }

  unsupported(type: ts.Type, reason: UnsupportedReason, args: DiagnosticArgs = {}): JsonSchema {
    this.root.reporter.report(`unsupportedType.${reason}`, { ...args, ...this.subject(type) }, this.position.node);
    return {};
  }
}

/** Maps a type at a position of a signature to its JSON Schema, reporting what cannot be mapped. */
export function mapTypeAt(type: ts.Type, position: TypePosition, root: RootMapOptions, depth = 0): JsonSchema {
  const syntax = resolveSyntax(position.typeNode, type, root);
  const ctx = new PositionContext(syntax.node === position.typeNode ? position : withTypeNode(position, syntax.node), root, depth);
  if (depth > MAX_DEPTH) return ctx.unsupported(type, 'tooDeep', { depth: MAX_DEPTH });
  const mapper = mapperAt(type, ctx, root.cache);
  if (!mapper) return ctx.unsupported(type, 'notData');
  let schema = mapper.map(type, ctx);
  const named = namedTypeDocs(type, ctx);
  if (schema.$ref && named.some((docs) => docs.tags.length > 0)) {
    // A recursive named type became a definition: its tags apply there (each reference shows the summary).
    root.definitions.editDefinition(type, (definition) => named.reduce((result, docs) => applyDocTags(result, docs, ctx, { description: false }), definition));
  }
  for (const docs of [...named, ...syntax.aliasDocs]) {
    const undocumented = schema;
    // A kept schema (frozen) gets the same docs at many uses: applied once (see SchemaCache.withDocs).
    schema =
      root.cache && Object.isFrozen(undocumented)
        ? root.cache.withDocs(undocumented, docs, () => withDocs(undocumented, docs, ctx), { reports: () => root.reporter.reports })
        : withDocs(undocumented, docs, ctx);
  }
  return schema;
}

/** The position with the syntax that denotes its type there (none when the written node does not). */
function withTypeNode(position: TypePosition, typeNode: ts.TypeNode | undefined): TypePosition {
  const { typeNode: _written, ...rest } = position;
  return typeNode ? { ...rest, typeNode } : rest;
}

/** The mappers whose choice depends on the position, with their place in `TYPE_MAPPERS`. */
const POSITION_READERS = TYPE_MAPPERS.flatMap((mapper, rank) => (mapper.readsPosition ? [{ mapper, rank }] : []));

/**
 * The first mapper in `TYPE_MAPPERS` that supports the type here. The choice by type alone (each position-reading
 * mapper answering by `supportsType`) is kept per program; then a mapper that reads the position and comes before
 * that choice is asked with the position, and takes the type if it supports it there.
 */
function mapperAt(type: ts.Type, ctx: MapContext, cache: SchemaCache | undefined): TypeMapper | undefined {
  const byType = cache ? cache.mapperOf(type, () => mapperByType(type, ctx)) : mapperByType(type, ctx);
  const rank = byType ? TYPE_MAPPERS.indexOf(byType) : TYPE_MAPPERS.length;
  return POSITION_READERS.find((reader) => reader.rank < rank && reader.mapper.supports(type, ctx))?.mapper ?? byType;
}

function mapperByType(type: ts.Type, ctx: MapContext): TypeMapper | undefined {
  return TYPE_MAPPERS.find((candidate) => (candidate.readsPosition ? candidate.supportsType(type) : candidate.supports(type, ctx)));
}

/** Named types' docs apply to every use; a reference takes only the summary (its constraints live in the definition). */
function withDocs(schema: JsonSchema, docs: DocInfo, ctx: MapContext): JsonSchema {
  if (!hasDocs(docs)) return schema;
  if (schema.$ref) return docs.summary ? { ...schema, description: docs.summary } : schema;
  return applyDocTags(schema, docs, ctx);
}
