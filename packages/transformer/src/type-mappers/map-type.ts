import ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';
import type { DiagnosticId } from '../diagnostics.js';
import type { Reporter } from '../analysis/reporter.js';
import type { JsDocReader } from '../analysis/jsdoc-reader.js';
import { arrayMapper, tupleMapper } from './array-mappers.js';
import { applyDocTags } from './constraint-tags.js';
import { DefinitionRegistry } from './definition-registry.js';
import { booleanMapper, noJsonKeywordMapper, nullMapper, numberMapper, stringMapper } from './keyword-mappers.js';
import { literalMapper } from './literal-mapper.js';
import { dateMapper, noJsonObjectMapper, objectMapper } from './object-mappers.js';
import { taggedIntersectionMapper } from './tagged-intersection-mapper.js';
import { templateLiteralMapper } from './template-literal-mapper.js';
import type { MapContext, TypeMapper, TypePosition } from './type-mapper.js';
import { unionMapper } from './union-mapper.js';

/**
 * The mappers, in the order they are tried. The order matters where kinds overlap:
 * - keywords with no JSON form come first: `any` and `never` satisfy every other test vacuously;
 * - `boolean` is the union `true | false`, and TS enums are unions of enum literals: before `union`;
 * - branded numbers and typia tags are intersections with an object part: before `object`;
 * - `Date`, functions and library classes are object types too: before `object`;
 * - tuples and arrays are object types: before `object`.
 */
export const TYPE_MAPPERS: readonly TypeMapper[] = [
  noJsonKeywordMapper,
  nullMapper,
  booleanMapper,
  unionMapper,
  literalMapper,
  stringMapper,
  numberMapper,
  templateLiteralMapper,
  taggedIntersectionMapper,
  dateMapper,
  noJsonObjectMapper,
  tupleMapper,
  arrayMapper,
  objectMapper,
];

const MAX_DEPTH = 64;

export interface RootMapOptions {
  checker: ts.TypeChecker;
  reporter: Reporter;
  docs: JsDocReader;
  definitions: DefinitionRegistry;
  isLibFile(file: ts.SourceFile): boolean;
  isProjectFile(file: ts.SourceFile): boolean;
}

/** Maps a type at a position of a signature to its JSON Schema, reporting what cannot be mapped. */
export function mapTypeAt(type: ts.Type, position: TypePosition, root: RootMapOptions, depth = 0): JsonSchema {
  const ctx: MapContext = {
    checker: root.checker,
    docs: root.docs,
    definitions: root.definitions,
    isLibFile: root.isLibFile,
    isProjectFile: root.isProjectFile,
    position,
    report: (id: DiagnosticId, args, node) => root.reporter.report(id, args, node ?? position.node),
    mapType: (child, childPosition) => mapTypeAt(child, childPosition ?? position, root, depth + 1),
    unsupported: (unsupportedType, hint) => {
      root.reporter.report('unsupportedType', {
        role: position.role,
        path: position.path,
        type: root.checker.typeToString(unsupportedType),
        hint,
      }, position.node);
      return {};
    },
  };
  if (depth > MAX_DEPTH) {
    return ctx.unsupported(type, `Types nested deeper than ${MAX_DEPTH} levels are refused; name the recursive type so it becomes a $ref.`);
  }
  const mapper = TYPE_MAPPERS.find((candidate) => candidate.supports(type, ctx));
  if (!mapper) return ctx.unsupported(type, 'Use JSON data types: string, number, boolean, arrays, and objects of those.');
  const schema = mapper.map(type, ctx);
  return withNamedTypeDocs(type, schema, ctx);
}

/**
 * JSDoc on an alias, interface or enum of the project describes every use of it. Docs of types from
 * other packages are written for their developers (e.g. `Integer`'s own `@example`) and stay out.
 */
function withNamedTypeDocs(type: ts.Type, schema: JsonSchema, ctx: MapContext): JsonSchema {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const declaration = symbol?.declarations?.[0];
  if (!declaration || declaration.getSourceFile().isDeclarationFile || !ctx.isProjectFile(declaration.getSourceFile())) return schema;
  if (!ts.isTypeAliasDeclaration(declaration) && !ts.isInterfaceDeclaration(declaration) && !ts.isEnumDeclaration(declaration)) return schema;
  const docs = ctx.docs.read(declaration);
  if (!docs.summary && docs.tags.length === 0) return schema;
  if (schema.$ref) return docs.summary ? { ...schema, description: docs.summary } : schema;
  return applyDocTags(schema, docs, ctx);
}
