import type ts from 'typescript';
import { createSourceTransformer } from './emit/source-transformer.js';

/**
 * ts-patch source transformer: `{ "transform": "@toolwright/transformer" }`.
 * Attaches generated declarations to tool functions in the emitted JS.
 */
export default function toolwrightTransformer(program: ts.Program, config?: { strictJson?: unknown }): ts.TransformerFactory<ts.SourceFile> {
  return createSourceTransformer(program, config?.strictJson === true ? { strictJson: true } : {});
}

export { analyzeProgram } from './analysis/analyze-program.js';
export type { AnalyzedTool, AnalyzeOptions, ProgramAnalysis } from './analysis/analyze-program.js';
export type { ToolCandidate } from './analysis/analyze-signature.js';
export { createIncrementalAnalyzer } from './analysis/incremental-analyzer.js';
export { GENERATED_MODULE_HEADER } from './generated-module.js';
export { createSourceTransformer } from './emit/source-transformer.js';
export { withToolDiagnostics } from './emit/program-transformer.js';
export type { ProgramTransformerOptions } from './emit/program-transformer.js';
export { DIAGNOSTICS, TS_CODE_OFFSET, toTsDiagnostic } from './diagnostics.js';
export type { DiagnosticDefinition, DiagnosticId, DiagnosticKey, DiagnosticReason, PositionRole, ToolwrightDiagnostic } from './diagnostics.js';
export type { TypeMapper, TypeOnlyMapper, PositionReadingMapper, MapContext, TypePosition } from './type-mappers/type-mapper.js';
export { formatDiagnostics } from './format-diagnostic.js';
export { loadTypeScript7, SUPPORTED_TYPESCRIPT_7 } from './front-end/typescript-7/typescript-7-api.js';
export type { Diagnostic7, TypeScript7, OpenProject7, Compiler7, Project7, SourceFile7 } from './front-end/typescript-7/typescript-7-api.js';
export { analyzeTypeScript7 } from './analysis/analyze-typescript-7.js';
