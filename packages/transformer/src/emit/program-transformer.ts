import type ts from 'typescript';
import { analyzeProgram } from '../analysis/analyze-program.js';
import { toTsDiagnostic } from '../diagnostics.js';

const PATCHED = Symbol.for('toolwright.programPatched');

/**
 * The reporting half. A source ("before") transformer never runs under `--noEmit`, so errors found
 * there would vanish; instead the program's own diagnostic queries are wrapped. Both
 * `getSemanticDiagnostics` (tsc) and `getBindAndCheckDiagnostics` (the builder behind `-b` and
 * `--incremental`) are wrapped, so every route fails on a bad tool. Diagnostics go to the file they
 * belong to; asked for the whole program, all of them are returned.
 */
export interface ProgramTransformerOptions {
  rootDir?: string;
  /**
   * What to do with warnings (missing or over-long descriptions, unshown defaults): `tsc` fails a build
   * on *any* diagnostic, so by default they are left to the editor plugin and `toolwright emit`;
   * `"error"` hands them to tsc as well (and so fails the build on them).
   */
  warnings?: 'ignore' | 'error';
  /** Parameters and results that take any JSON value are errors (TW1104), not warnings. */
  strictJson?: boolean;
}

export function withToolDiagnostics(program: ts.Program, options: ProgramTransformerOptions = {}): ts.Program {
  const patched = program as ts.Program & { [PATCHED]?: boolean };
  if (patched[PATCHED]) return program;
  patched[PATCHED] = true;
  const forFile = (sourceFile: ts.SourceFile | undefined): ts.Diagnostic[] => {
    const { diagnostics } = analyzeProgram(program, {
      ...(options.rootDir !== undefined ? { rootDir: options.rootDir } : {}),
      ...(options.strictJson ? { strictJson: true } : {}),
    });
    return diagnostics
      .filter((d) => (!sourceFile || d.file.fileName === sourceFile.fileName) && (d.category === 'error' || options.warnings === 'error'))
      .map((d) => toTsDiagnostic(d.category === 'warning' ? { ...d, category: 'error' } : d));
  };
  const wrap = (method: 'getSemanticDiagnostics' | 'getBindAndCheckDiagnostics') => {
    type DiagnosticsMethod = (sourceFile?: ts.SourceFile, token?: ts.CancellationToken) => readonly ts.Diagnostic[];
    const methods = program as unknown as Record<typeof method, DiagnosticsMethod | undefined>;
    const original = methods[method];
    if (typeof original !== 'function') return;
    methods[method] = function (this: unknown, sourceFile?: ts.SourceFile, token?: ts.CancellationToken) {
      const own = original.call(program, sourceFile, token);
      return [...own, ...forFile(sourceFile)];
    };
  };
  wrap('getSemanticDiagnostics');
  wrap('getBindAndCheckDiagnostics');
  return program;
}
