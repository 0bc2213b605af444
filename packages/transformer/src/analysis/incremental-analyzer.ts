import type { ts } from '../front-end/typescript.js';
import { analyzeProgram, type ProgramAnalysis } from './analyze-program.js';

/**
 * An analyzer for a sequence of programs (watch mode, editors): each call analyses the newest
 * program, reusing the results of files that are unchanged along with everything they import.
 */
export function createIncrementalAnalyzer(options: { rootDir?: string; strictJson?: boolean } = {}): (program: ts.Program) => ProgramAnalysis {
  let previous: ProgramAnalysis | undefined;
  return (program) => {
    previous = analyzeProgram(program, { ...options, ...(previous ? { previous } : {}) });
    return previous;
  };
}
