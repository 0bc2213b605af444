import type ts from 'typescript';
import { withToolDiagnostics } from './emit/program-transformer.js';

/**
 * ts-patch program transformer: `{ "transform": "@toolwright/transformer/program", "transformProgram": true }`.
 * Makes bad tools fail `tspc`, `tspc --noEmit`, `--incremental` and `tsc -b`.
 */
export default function toolwrightProgramTransformer(program: ts.Program): ts.Program {
  return withToolDiagnostics(program);
}
