import fs from 'node:fs';
import path from 'node:path';
import { analyzeTypeScript7, loadTypeScript7, type Diagnostic7, type OpenProject7, type ProgramAnalysis, type TypeScript7 } from '@toolwright/transformer';
import { CliError } from '../cli-error.js';
import type { ProjectTypeScript } from '../project-typescript.js';
import { strictJsonOf } from '../transformer-settings.js';
import { EMITTING_AFTER_CHANGE, watchSources } from '../watch-sources.js';
import type { WatchHandle } from './emit-watch.js';
import { writeOutputs, type EmitOptions, type EmitResult } from './emit.js';

/**
 * `toolwright emit` on a TypeScript 7 project: the native compiler opens the project (its own
 * process, through its API) and the same analysis as on TypeScript 6 reads it, so the same
 * declarations and diagnostics come out. Nothing is compiled: `tsgo` builds the JavaScript.
 */
export async function emitTypeScript7(options: EmitOptions, typescript: ProjectTypeScript, log: (line: string) => void): Promise<EmitResult> {
  const started = performance.now();
  const { compiler, configPath } = await openCompiler(options, typescript);
  const open = openProject(compiler, configPath);
  try {
    return emitOnce(compiler, open, configPath, options, started, log);
  } finally {
    open.close();
  }
}

/**
 * `toolwright emit --watch` on a TypeScript 7 project: one native compiler kept open; after a change
 * it reads the changed files again and the analysis reuses what they did not affect.
 */
export async function emitWatchTypeScript7(
  options: EmitOptions,
  typescript: ProjectTypeScript,
  onResult: (result: EmitResult | Error) => void,
  log: (line: string) => void,
): Promise<WatchHandle> {
  const { compiler, configPath } = await openCompiler(options, typescript);
  const open = openProject(compiler, configPath);
  const rootDir = path.dirname(configPath);
  let previous: ProgramAnalysis | undefined;
  let closed = false;
  const build = (started: number, changes?: { changed: string[]; created: string[]; deleted: string[] } | 'all') => {
    if (closed) return;
    try {
      if (changes === 'all') open.refresh();
      else if (changes) open.refresh(changes);
      const result = emitOnce(compiler, open, configPath, options, started, log, previous, (analysis) => (previous = analysis));
      onResult(result);
    } catch (error) {
      if (error instanceof CliError) log(error.message);
      onResult(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const watcher = watchSources(rootDir, (files, started) => {
    log(EMITTING_AFTER_CHANGE);
    // A tsconfig changed, or an event without a name: everything is read again.
    if (files.length === 0 || files.some((entry) => /tsconfig[^\\/]*\.json$/.test(entry))) return build(started, 'all');
    const known = new Set(open.project.program.getSourceFileNames());
    build(started, {
      changed: files.filter((entry) => known.has(entry) && fs.existsSync(entry)),
      created: files.filter((entry) => !known.has(entry) && fs.existsSync(entry)),
      deleted: files.filter((entry) => !fs.existsSync(entry)),
    });
  });
  build(performance.now());
  log('Watching for changes to tool signatures...');
  return {
    close: () => {
      closed = true;
      watcher.close();
      open.close();
    },
  };
}

async function openCompiler(options: EmitOptions, typescript: ProjectTypeScript): Promise<{ compiler: TypeScript7; configPath: string }> {
  let configPath = path.resolve(options.cwd ?? process.cwd(), options.project);
  if (fs.existsSync(configPath) && fs.statSync(configPath).isDirectory()) configPath = path.join(configPath, 'tsconfig.json');
  if (!fs.existsSync(configPath)) throw new CliError(`Cannot find a tsconfig at '${configPath}'. Pass --project <path to tsconfig.json>.`, 2);
  if (!typescript.packageDir) throw new CliError('No TypeScript 7 package was found for this project (npm i -D typescript@7).', 2);
  try {
    return { compiler: await loadTypeScript7(typescript.packageDir), configPath };
  } catch (error) {
    throw new CliError(`Cannot use TypeScript ${typescript.version}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
}

function openProject(compiler: TypeScript7, configPath: string): OpenProject7 {
  let open: OpenProject7;
  try {
    open = compiler.openProject(configPath);
  } catch (error) {
    throw new CliError(`TypeScript ${compiler.version} could not open ${configPath}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  const problems = open.project.program.getConfigFileParsingDiagnostics().filter(isError);
  if (problems.length > 0) {
    open.close();
    throw new CliError(formatDiagnostics7(open, problems), 2);
  }
  return open;
}

function emitOnce(
  compiler: TypeScript7,
  open: OpenProject7,
  configPath: string,
  options: EmitOptions,
  started: number,
  log: (line: string) => void,
  previous?: ProgramAnalysis,
  keep?: (analysis: ProgramAnalysis) => void,
): EmitResult {
  const rootDir = path.dirname(configPath);
  const compilerOptions = open.project.compilerOptions as Parameters<typeof strictJsonOf>[0];
  const analysis = analyzeTypeScript7(compiler, open, { rootDir, ...strictJsonOf(compilerOptions), ...(previous ? { previous } : {}) });
  keep?.(analysis);
  const syntax = open.project.program.getSyntacticDiagnostics().filter(isError);
  return writeOutputs(analysis, { rootDir }, options, started, log, syntax.length > 0 ? formatDiagnostics7(open, syntax) : '');
}

function isError(diagnostic: Diagnostic7): boolean {
  return diagnostic.category === 1;
}

/** As `tsc` prints them without --pretty: `file(line,column): error TS1005: ...`. */
function formatDiagnostics7(open: OpenProject7, diagnostics: readonly Diagnostic7[]): string {
  return diagnostics
    .map((diagnostic) => {
      const where = diagnostic.fileName ? `${path.relative(process.cwd(), diagnostic.fileName).replace(/\\/g, '/')}${position(open, diagnostic)}: ` : '';
      return `${where}error TS${diagnostic.code}: ${diagnostic.text}`;
    })
    .join('\n');
}

function position(open: OpenProject7, diagnostic: Diagnostic7): string {
  const file = diagnostic.fileName ? open.project.program.getSourceFile(diagnostic.fileName) : undefined;
  const at = (file as { getLineAndCharacterOfPosition?: (pos: number) => { line: number; character: number } } | undefined)?.getLineAndCharacterOfPosition?.(
    diagnostic.pos,
  );
  return at ? `(${at.line + 1},${at.character + 1})` : '';
}
