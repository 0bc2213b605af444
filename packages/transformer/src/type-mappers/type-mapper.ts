import type { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import type { DIAGNOSTICS, DiagnosticArgs, DiagnosticKey, PositionRole } from '../diagnostics.js';
import type { JsDocReader } from '../jsdoc-reader.js';
import type { DefinitionRegistry } from './definition-registry.js';

/** Why a type has no JSON form: a reason of `unsupportedType` in the catalogue. */
export type UnsupportedReason = keyof (typeof DIAGNOSTICS)['unsupportedType']['reasons'];

/** Where in the signature a type sits: decides wording and which node a problem is reported at. */
export interface TypePosition {
  /** `options.callback`, `items[]`, `returns.entries[]`. */
  path: string;
  /** How messages name the position (wording in `POSITION_ROLES`). */
  role: PositionRole;
  /** The node a problem at this position is reported at (the parameter, property or type node). */
  node: ts.Node;
  /**
   * The syntax that wrote the type here, when known: it carries what the checker forgets (docs of an
   * alias of a primitive, the members of a union the checker collapsed). Ignored unless it denotes the
   * very type being mapped (see `resolveSyntax`).
   */
  typeNode?: ts.TypeNode;
}

export interface MapContext {
  readonly checker: ts.TypeChecker;
  readonly docs: JsDocReader;
  readonly definitions: DefinitionRegistry;
  /** Whether a file is one of TypeScript's default libraries (lib.*.d.ts). */
  isLibFile: (file: ts.SourceFile) => boolean;
  /** Whether a file belongs to the project being analysed (not a library, not another package). */
  isProjectFile: (file: ts.SourceFile) => boolean;
  readonly position: TypePosition;
  report(key: DiagnosticKey, args: DiagnosticArgs, node?: ts.Node): void;
  /**
   * Maps `type` once per program with `build` when the result does not depend on where it is used
   * (see SchemaCache); for types that are expensive to walk and shared, such as interfaces.
   */
  cached(type: ts.Type, build: () => JsonSchema): JsonSchema;
  /** Maps a nested type; `position` describes the child (defaults to the current position). */
  mapType(type: ts.Type, position?: TypePosition): JsonSchema;
  /** The `{role}`, `{path}` and `{type}` of a message about `type` at the current position. */
  subject(type: ts.Type): DiagnosticArgs;
  /** Reports that the type at the current position has no JSON form, with the catalogue's hint for its kind. */
  unsupported(type: ts.Type, reason: UnsupportedReason, args?: DiagnosticArgs): JsonSchema;
}

/**
 * One TypeScript type kind and its JSON Schema. Mappers are tried in the order of `TYPE_MAPPERS`;
 * the first whose `supports` answers true maps the type.
 */
export type TypeMapper = TypeOnlyMapper | PositionReadingMapper;

interface MapperBase {
  readonly name: string;
  supports(type: ts.Type, ctx: MapContext): boolean;
  map(type: ts.Type, ctx: MapContext): JsonSchema;
}

/** A mapper whose `supports` reads the type alone: the choice is the same at every position, and is kept per program. */
export interface TypeOnlyMapper extends MapperBase {
  readonly readsPosition?: false;
}

/**
 * A mapper whose `supports` also reads the position (the union mapper takes a union written there whose members the
 * checker collapsed). `supportsType` is its answer from the type alone, with which the choice kept per program is
 * made; at each position it is asked again, with the position, when it comes before the mapper chosen by type.
 */
export interface PositionReadingMapper extends MapperBase {
  readonly readsPosition: true;
  supportsType(type: ts.Type): boolean;
}
