import type ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';
import type { DiagnosticId } from '../diagnostics.js';
import type { JsDocReader } from '../analysis/jsdoc-reader.js';
import type { DefinitionRegistry } from './definition-registry.js';

/** Where in the signature a type sits: decides wording and which node a problem is reported at. */
export interface TypePosition {
  /** `options.callback`, `items[]`, `returns.entries[]`. */
  path: string;
  /** 'Parameter', 'Property', 'Element' or 'Return type': how messages name the position. */
  role: string;
  /** The node a problem at this position is reported at (the parameter, property or type node). */
  node: ts.Node;
}

export interface MapContext {
  readonly checker: ts.TypeChecker;
  readonly docs: JsDocReader;
  readonly definitions: DefinitionRegistry;
  /** Whether a file is one of TypeScript's default libraries (lib.*.d.ts). */
  isLibFile(file: ts.SourceFile): boolean;
  /** Whether a file belongs to the project being analysed (not a library, not another package). */
  isProjectFile(file: ts.SourceFile): boolean;
  readonly position: TypePosition;
  report(id: DiagnosticId, args: Record<string, string | number>, node?: ts.Node): void;
  /** Maps a nested type; `position` describes the child (defaults to the current position). */
  mapType(type: ts.Type, position?: TypePosition): JsonSchema;
  /** Reports that the type at the current position has no JSON form, with a hint for its kind. */
  unsupported(type: ts.Type, hint: string): JsonSchema;
}

/**
 * One TypeScript type kind and its JSON Schema. Mappers are tried in the order of `TYPE_MAPPERS`;
 * the first whose `supports` answers true maps the type.
 */
export interface TypeMapper {
  readonly name: string;
  supports(type: ts.Type, ctx: MapContext): boolean;
  map(type: ts.Type, ctx: MapContext): JsonSchema;
}
