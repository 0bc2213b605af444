import path from 'node:path';
import ts from 'typescript';
import { analyzeProgram, type ProgramAnalysis } from '../src/index.js';

/** Compiler options of the fixture programs: strict, and `@toolwright/*` resolved to their sources. */
export const FIXTURE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['@toolwright/source'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};

/** Analyses one fixture's `input.ts` (plus any sibling files it imports) through the real compiler. */
export function compileFixture(dir: string, options: ts.CompilerOptions = FIXTURE_OPTIONS): { program: ts.Program; analysis: ProgramAnalysis } {
  const program = ts.createProgram([path.join(dir, 'input.ts')], options);
  return { program, analysis: analyzeProgram(program, { rootDir: dir }) };
}
