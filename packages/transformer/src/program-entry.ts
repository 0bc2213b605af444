import type ts from 'typescript';
import { withToolDiagnostics } from './emit/program-transformer.js';

/**
 * ts-patch program transformer: `{ "transform": "@toolwright/transformer/program", "transformProgram": true }`.
 * Makes bad tools fail `tspc`, `tspc --noEmit`, `--incremental` and `tsc -b`. Add `"warnings": "error"`
 * to the entry to fail on warnings too, or `"strictJson": true` to refuse only parameters that take any
 * JSON value (`unknown`, `any`, `object`, `Record<string, unknown>`).
 */
export default function toolwrightProgramTransformer(program: ts.Program, _host?: unknown, config?: { warnings?: unknown; strictJson?: unknown }): ts.Program {
  return withToolDiagnostics(program, {
    ...(config?.warnings === 'error' ? { warnings: 'error' as const } : {}),
    ...(config?.strictJson === true ? { strictJson: true } : {}),
  });
}
