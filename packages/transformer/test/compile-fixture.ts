import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { analyzeProgram, type AnalyzeOptions, type ProgramAnalysis } from '../src/index.js';

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

/**
 * Analyses one fixture's `input.ts` (plus any sibling files it imports) through the real compiler,
 * with the analysis options of its `options.json` when it has one (e.g. `{ "strictJson": true }`).
 */
export function compileFixture(dir: string, options: ts.CompilerOptions = FIXTURE_OPTIONS): { program: ts.Program; analysis: ProgramAnalysis } {
  const program = ts.createProgram([path.join(dir, 'input.ts')], options);
  const optionsFile = path.join(dir, 'options.json');
  const analyzeOptions = fs.existsSync(optionsFile) ? (JSON.parse(fs.readFileSync(optionsFile, 'utf8')) as Omit<AnalyzeOptions, 'rootDir' | 'previous'>) : {};
  return { program, analysis: analyzeProgram(program, { ...analyzeOptions, rootDir: dir }) };
}
