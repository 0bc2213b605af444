import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { ToolDeclaration } from '@toolwright/schema';
import { analyzeProgram, formatDiagnostics, type ProgramAnalysis } from '@toolwright/transformer';
import { strictJsonOf } from '../transformer-settings.js';
import { CliError } from '../cli-error.js';
import { createCompilerHost } from '../compiler-host.js';
import { renderModule, type ModuleEntry } from '../generated-module.js';
import { loadProject, formatTsDiagnostics, type LoadedProject } from '../load-project.js';
import { manifestDrift, renderManifest } from '../manifest.js';
import { checkMessage } from './emit-check-message.js';

export interface EmitOptions {
  project: string;
  out?: string;
  check?: boolean;
  module?: string;
  cwd?: string;
  /**
   * When some tools are refused, still write the declarations of every tool that compiled (the
   * diagnostics are reported and the result still counts the errors, so the build fails).
   */
  keepGoing?: boolean;
  /**
   * Also write the tools' search index to `file`, built now by `build` (the registry's `buildSearchIndex`, which the
   * command loads only then); `registry.useSearchIndex` loads it instead of building one.
   */
  searchIndex?: { file: string; build: (declarations: readonly ToolDeclaration[]) => unknown };
}

export interface EmitResult {
  toolCount: number;
  fileCount: number;
  errorCount: number;
  warningCount: number;
  elapsedMs: number;
  /** What was printed for diagnostics (empty when none). */
  report: string;
  /** The declarations written (or checked): those of every tool that compiled. */
  declarations: readonly ToolDeclaration[];
}

/**
 * `toolwright emit`: analyses a project's tools without emitting JS or checking function bodies
 * (only the types that tool signatures reach are resolved), then writes `tools.json` and/or a module.
 */
export function emit(options: EmitOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): EmitResult {
  const started = performance.now();
  const project = loadProject(options.project, options.cwd);
  const compilerOptions = { ...project.parsed.options, noEmit: true };
  const program = ts.createProgram({
    rootNames: project.parsed.fileNames,
    options: compilerOptions,
    projectReferences: project.parsed.projectReferences,
    host: createCompilerHost(compilerOptions),
  });
  return writeOutputs(
    analyzeProgram(program, { rootDir: project.rootDir, ...strictJsonOf(project.parsed.options) }),
    project,
    options,
    started,
    log,
    syntaxErrorsOf(program),
  );
}

/** The program's syntax errors as tsc prints them (empty when none): nothing is written while there are some. */
export function syntaxErrorsOf(program: ts.Program): string {
  const syntax = program.getSyntacticDiagnostics();
  return syntax.length > 0 ? formatTsDiagnostics(syntax) : '';
}

/** What this process last wrote to each output, and the file as it left it. */
const written = new Map<string, { content: string; size: number; mtimeMs: number; ino: number }>();

function sameFile(file: string, last: { size: number; mtimeMs: number; ino: number }): boolean {
  try {
    const stat = fs.statSync(file);
    return stat.size === last.size && stat.mtimeMs === last.mtimeMs && stat.ino === last.ino;
  } catch {
    return false;
  }
}

/**
 * Shared by `emit` and `emit --watch` on either TypeScript: report, then write or check the outputs.
 * `syntaxErrors` (the compiler's, printed) stops it before anything is written.
 */
export function writeOutputs(
  analysis: ProgramAnalysis,
  project: Pick<LoadedProject, 'rootDir'>,
  options: EmitOptions,
  started: number,
  log: (line: string) => void,
  syntaxErrors = '',
): EmitResult {
  if (syntaxErrors) throw new CliError(syntaxErrors, 1);
  const rel = (file: string) => path.relative(options.cwd ?? process.cwd(), file).replace(/\\/g, '/');
  const report = formatDiagnostics(analysis.diagnostics, { fileName: rel });
  if (report) log(report);
  const errorCount = analysis.diagnostics.filter((d) => d.category === 'error').length;
  const warningCount = analysis.diagnostics.length - errorCount;
  const declarations = analysis.tools.flatMap((t) => (t.declaration ? [t.declaration] : []));
  const result = (): EmitResult => ({
    toolCount: declarations.length,
    fileCount: analysis.fileCount,
    errorCount,
    warningCount,
    elapsedMs: performance.now() - started,
    report,
    declarations,
  });
  const refused = analysis.tools.flatMap((t) => (t.declaration ? [] : [t.candidate.functionName]));
  if (errorCount > 0 && !options.keepGoing) {
    log(`Found ${errorCount} error${errorCount === 1 ? '' : 's'} in tool declarations; nothing was written.`);
    return result();
  }
  if (errorCount > 0) {
    const names = refused.length > 0 ? ` (refused: ${refused.join(', ')})` : '';
    log(
      `Found ${errorCount} error${errorCount === 1 ? '' : 's'} in tool declarations; --keep-going: writing the ${declarations.length} tool${declarations.length === 1 ? '' : 's'} that compiled${names}.`,
    );
  }

  const outputs: { file: string; content: string; kind: 'manifest' | 'generated module' | 'search index' }[] = [];
  if (options.out !== undefined || options.module === undefined) {
    outputs.push({
      file: path.resolve(options.cwd ?? process.cwd(), options.out ?? path.join(project.rootDir, 'tools.json')),
      content: renderManifest(declarations),
      kind: 'manifest',
    });
  }
  if (options.searchIndex !== undefined) {
    const file = path.resolve(options.cwd ?? process.cwd(), options.searchIndex.file);
    outputs.push({ file, content: `${JSON.stringify(options.searchIndex.build(declarations))}\n`, kind: 'search index' });
  }
  if (options.module !== undefined) {
    const moduleFile = path.resolve(options.cwd ?? process.cwd(), options.module);
    const entries: ModuleEntry[] = analysis.tools.flatMap((t) =>
      t.declaration ? [{ declaration: t.declaration, fileName: t.candidate.fn.getSourceFile().fileName, exportName: t.candidate.exportName }] : [],
    );
    outputs.push({ file: moduleFile, content: renderModule(entries, moduleFile), kind: 'generated module' });
  }

  for (const { file, content, kind } of outputs) {
    if (options.check) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (current === content) continue;
      const details = current === undefined ? ['(file does not exist)'] : kind === 'manifest' ? manifestDrift(content, current) : [`(${kind} differs)`];
      const manifest = current !== undefined && kind === 'manifest' ? current : undefined;
      throw new CliError(checkMessage(rel(file), details, manifest, declarations), 1);
    }
    // `emit --watch` after an edit that changed no tool: the file this process wrote is still there, untouched.
    const last = written.get(file);
    if (last?.content === content && sameFile(file, last)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, content);
    fs.renameSync(temporary, file);
    const stat = fs.statSync(file);
    written.set(file, { content, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  }
  const summary = result();
  log(
    `${summary.toolCount} tool${summary.toolCount === 1 ? '' : 's'} from ${summary.fileCount} file${summary.fileCount === 1 ? '' : 's'} in ${Math.round(summary.elapsedMs)} ms${refused.length > 0 ? `, ${refused.length} refused` : ''}${options.check ? ' (up to date)' : ''}`,
  );
  return summary;
}
