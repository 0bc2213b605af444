import { analyzeProgram, type AnalyzeOptions, type ProgramAnalysis } from './analyze-program.js';
import { withTypeScript } from '../front-end/typescript.js';
import { programView, type FileOrigin7 } from '../front-end/typescript-7/program-7.js';
import { typeScript7Surface } from '../front-end/typescript-7/surface-7.js';
import type { OpenProject7, TypeScript7 } from '../front-end/typescript-7/typescript-7-api.js';

/**
 * Analyses a TypeScript 7 project (opened with `typescript.openProject`) with the same analysis as
 * TypeScript 6's: the same tools found, the same declarations and diagnostics. Pass the result back
 * as `previous` after `open.refresh()` to reuse what an edit left unchanged (watch mode).
 */
export function analyzeTypeScript7(typescript: TypeScript7, open: OpenProject7, options: AnalyzeOptions = {}): ProgramAnalysis {
  const surface = typeScript7Surface(typescript, open.project);
  let libraries = librariesOf.get(open);
  if (!libraries) librariesOf.set(open, (libraries = new Map<string, FileOrigin7>()));
  return withTypeScript(surface, () => analyzeProgram(programView(typescript, open.project, libraries), options));
}

/** Per open project, which of its files are libraries' (see `programView`). */
const librariesOf = new WeakMap<OpenProject7, Map<string, FileOrigin7>>();
