import path from 'node:path';
import { readAheadOf, ts } from '../front-end/typescript.js';
import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolwrightDiagnostic } from '../diagnostics.js';
import { SchemaCache } from '../type-mappers/schema-cache.js';
import { analyzeSignature, type AnalysisServices, type ToolCandidate } from './analyze-signature.js';
import { findTools } from './find-tools.js';
import { isGeneratedModule } from '../generated-module.js';
import { JsDocReader } from '../jsdoc-reader.js';
import { Reporter } from '../reporter.js';
import { ToolCalleeResolver } from './tool-callee.js';

/** A tool found in the program, with its declaration when it had no errors. */
export interface AnalyzedTool {
  candidate: ToolCandidate;
  declaration?: ToolDeclaration;
}

/** What one source file contributes; reusable while the file and everything it imports are unchanged. */
export interface FileAnalysis {
  sourceFile: ts.SourceFile;
  tools: AnalyzedTool[];
  diagnostics: ToolwrightDiagnostic[];
  /** The files this analysis read types from: the file itself and its transitive imports. */
  dependencies: ts.SourceFile[];
}

export interface ProgramAnalysis {
  tools: AnalyzedTool[];
  /** Declarations by the node the source transformer rewrites. */
  bySite: Map<ts.Node, ToolDeclaration>;
  diagnostics: ToolwrightDiagnostic[];
  /** Number of files that hold at least one tool. */
  fileCount: number;
  /** Per-file results, for the next analysis of a changed program (watch mode, editors). */
  files: Map<string, FileAnalysis>;
  /** Files analysed afresh (the rest were reused from the previous analysis). */
  analysedFiles: number;
  /** Whether `strictJson` was on (results of the other setting are never reused). */
  strictJson: boolean;
}

export interface AnalyzeOptions {
  rootDir?: string;
  /** The analysis of an earlier version of the program, whose unaffected file results are reused. */
  previous?: ProgramAnalysis;
  /**
   * Refuse parameters and results that accept any JSON value or object (`unknown`, `any`, `object`,
   * `Record<string, unknown>`): the `anyJson` warning (TW1104) becomes an error.
   */
  strictJson?: boolean;
  /**
   * Only these files' tools are analysed (by file name), and wire names need be unique among them alone; the rest of
   * the program is read only for the types those tools use. Default: every file of the program. One program can so
   * answer for many small projects that share its libraries (a test's fixtures, one file of a large project at a time).
   */
  files?: readonly string[];
}

/** One analysis per program and setting (the program and source transformers share it). */
const cache = new WeakMap<ts.Program, Map<string, ProgramAnalysis>>();

/**
 * Analyses every tool of a program once; the program transformer (diagnostics), the source
 * transformer (emission), the language service plugin and `toolwright emit` all share the result.
 * Never throws for user code: an unexpected failure on one tool becomes a TW1015 diagnostic.
 */
export function analyzeProgram(program: ts.Program, options: AnalyzeOptions = {}): ProgramAnalysis {
  // One analysis per setting and set of files. Not per rootDir: the source transformer, which names none, takes the
  // analysis the program transformer or `toolwright build` made with theirs (keyed by it, a build analysed twice).
  const setting = JSON.stringify([Boolean(options.strictJson), options.files ?? null]);
  const cached = cache.get(program)?.get(setting);
  if (cached) return cached;
  const checker = program.getTypeChecker();
  const docs = new JsDocReader();
  const callee = new ToolCalleeResolver(checker, (file) => ts.sys.readFile(file));
  const compilerOptions = program.getCompilerOptions() as ts.CompilerOptions & { configFilePath?: string };
  // The project's own files: under rootDir, else beside the tsconfig, else under the working directory.
  const rootDir =
    options.rootDir ??
    compilerOptions.rootDir ??
    (compilerOptions.configFilePath ? path.dirname(compilerOptions.configFilePath) : program.getCurrentDirectory());
  const isLibFile = (file: ts.SourceFile) => program.isSourceFileDefaultLibrary(file);
  const rootPrefix = `${rootDir.replace(/\\/g, '/').replace(/\/$/, '')}/`;
  // Asked at every named type of every signature: answered once per file.
  const projectFiles = new Map<ts.SourceFile, boolean>();
  const isProjectFile = (file: ts.SourceFile) => {
    let answer = projectFiles.get(file);
    if (answer === undefined) {
      answer = !program.isSourceFileFromExternalLibrary(file) && file.fileName.replace(/\\/g, '/').startsWith(rootPrefix);
      projectFiles.set(file, answer);
    }
    return answer;
  };
  const imports = new ImportGraph(program, checker);
  const globalsChanged = options.previous
    ? globalScriptsChanged(program, options.previous) || options.previous.strictJson !== Boolean(options.strictJson)
    : true;
  const schemas = new SchemaCache();
  const reporterOptions = options.strictJson ? { asErrors: new Set(['anyJson'] as const) } : {};

  const services = { checker, docs, callee, rootDir, isLibFile, isProjectFile, cache: schemas };
  // Files whose analysis is reused, and those read afresh: a front end is told of those first, then of
  // all their tools' signatures before the first is read (`readAhead`); then each file's tools are analysed.
  const files = new Map<string, FileAnalysis | undefined>(); // in the program's order; undefined until analysed
  const fresh: ts.SourceFile[] = [];
  const only = options.files && new Set(options.files.map((file) => file.replace(/\\/g, '/')));
  for (const sourceFile of only ? program.getSourceFiles().filter((file) => only.has(file.fileName)) : program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || program.isSourceFileFromExternalLibrary(sourceFile) || isGeneratedModule(sourceFile.text)) continue;
    const reusable = !globalsChanged && options.previous?.files.get(sourceFile.fileName);
    if (reusable && reusable.dependencies.every((dep) => program.getSourceFile(dep.fileName) === dep)) files.set(sourceFile.fileName, reusable);
    else {
      files.set(sourceFile.fileName, undefined);
      fresh.push(sourceFile);
    }
  }
  const ahead = readAheadOf(checker);
  ahead.readFiles?.(fresh);
  const found = fresh.map((sourceFile) => findFileTools(sourceFile, services, new Reporter(reporterOptions)));
  ahead.readSignatures?.(found.flatMap((file) => file.candidates.map((candidate) => candidate.fn)));
  for (const file of found) files.set(file.sourceFile.fileName, analyzeFile(file, services, imports));
  const analysis = { ...combine(files as Map<string, FileAnalysis>, rootDir, found.length), strictJson: Boolean(options.strictJson) };
  const bySetting = cache.get(program) ?? new Map<string, ProgramAnalysis>();
  bySetting.set(setting, analysis);
  cache.set(program, bySetting);
  return analysis;
}

/** A file's tools, found, before their signatures are read. */
interface FoundTools {
  sourceFile: ts.SourceFile;
  candidates: ToolCandidate[];
  reporter: Reporter;
}

function findFileTools(
  sourceFile: ts.SourceFile,
  services: Omit<AnalysisServices, 'reporter'> & { callee: ToolCalleeResolver },
  reporter: Reporter,
): FoundTools {
  let candidates: ToolCandidate[] = [];
  try {
    candidates = findTools(sourceFile, { ...services, reporter });
  } catch (error) {
    reporter.report('unexpectedConstruct', { tool: sourceFile.fileName, problem: describeError(error) }, sourceFile);
  }
  return { sourceFile, candidates, reporter };
}

function analyzeFile(
  { sourceFile, candidates, reporter }: FoundTools,
  services: Omit<AnalysisServices, 'reporter'> & { callee: ToolCalleeResolver },
  imports: ImportGraph,
): FileAnalysis {
  const tools: AnalyzedTool[] = [];
  for (const candidate of candidates) {
    try {
      const declaration = analyzeSignature(candidate, { ...services, reporter });
      tools.push(declaration ? { candidate, declaration } : { candidate });
    } catch (error) {
      reporter.report('unexpectedConstruct', { tool: candidate.functionName, problem: describeError(error) }, candidate.nameNode);
      tools.push({ candidate });
    }
  }
  return { sourceFile, tools, diagnostics: reporter.diagnostics, dependencies: candidates.length > 0 ? imports.closure(sourceFile) : [sourceFile] };
}

/** Joins per-file results; wire names must be unique across the program. */
function combine(files: Map<string, FileAnalysis>, rootDir: string, analysedFiles: number): Omit<ProgramAnalysis, 'strictJson'> {
  const diagnostics: ToolwrightDiagnostic[] = [];
  const seen = new Set<string>();
  const push = (d: ToolwrightDiagnostic) => {
    const key = `${d.file.fileName}:${d.start}:${d.code}:${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      diagnostics.push(d);
    }
  };
  const tools: AnalyzedTool[] = [];
  const bySite = new Map<ts.Node, ToolDeclaration>();
  const byName = new Map<string, AnalyzedTool>();
  let fileCount = 0;
  const duplicateReporter = new Reporter();
  for (const file of files.values()) {
    file.diagnostics.forEach(push);
    if (file.tools.length > 0) fileCount++;
    for (const entry of file.tools) {
      const { declaration, candidate } = entry;
      if (!declaration) {
        tools.push(entry);
        continue;
      }
      const first = byName.get(declaration.name);
      if (first) {
        duplicateReporter.report('duplicateToolName', { name: declaration.name, other: describeTool(first) }, candidate.nameNode);
        tools.push({ candidate });
        continue;
      }
      byName.set(declaration.name, entry);
      bySite.set(candidate.site, declaration);
      tools.push(entry);
    }
  }
  duplicateReporter.diagnostics.forEach(push);
  void rootDir;
  return { tools, bySite, diagnostics, fileCount, files, analysedFiles };
}

/**
 * Which source files a file's tool signatures can read types from: its transitive imports (by the
 * checker's module resolution). Ambient script files are handled by `globalScriptsChanged`.
 */
class ImportGraph {
  private readonly direct = new Map<ts.SourceFile, ts.SourceFile[]>();

  constructor(
    private readonly program: ts.Program,
    private readonly checker: ts.TypeChecker,
  ) {}

  closure(root: ts.SourceFile): ts.SourceFile[] {
    const result = new Set<ts.SourceFile>([root]);
    const queue = [root];
    while (queue.length > 0) {
      for (const next of this.importsOf(queue.pop()!)) {
        if (!result.has(next)) {
          result.add(next);
          queue.push(next);
        }
      }
    }
    return [...result];
  }

  private importsOf(file: ts.SourceFile): ts.SourceFile[] {
    const known = this.direct.get(file);
    if (known) return known;
    const found: ts.SourceFile[] = [];
    const visit = (node: ts.Node) => {
      const specifier =
        ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
          ? node.moduleSpecifier
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
            ? node.argument.literal
            : undefined;
      if (specifier && ts.isStringLiteral(specifier)) {
        const target = moduleFile(this.checker.getSymbolAtLocation(specifier));
        if (target && !this.program.isSourceFileDefaultLibrary(target)) found.push(target);
      }
      if (ts.isImportTypeNode(node)) return;
      if (deep || ts.isModuleDeclaration(node) || ts.isModuleBlock(node)) node.forEachChild(visit);
    };
    // Import and export declarations are statements (of the file or of a `declare module` block); only
    // `import("...")` types can be anywhere, so the whole tree is walked only when the text has one.
    const deep = /\bimport\s*\(/.test(file.text);
    file.statements.forEach(visit);
    this.direct.set(file, found);
    return found;
  }
}

/**
 * The file a module symbol stands for. A file's module symbol has the file as its value declaration;
 * its other declarations (augmentations such as the generated module's `declare module`) are not
 * looked at, so a front end that reads nodes on demand never fetches their files.
 */
function moduleFile(module: ts.Symbol | undefined): ts.SourceFile | undefined {
  const value = module?.valueDeclaration;
  return value && ts.isSourceFile(value) ? value : module?.declarations?.find(ts.isSourceFile);
}

/** Global (non-module) files can change any type anywhere: if one changed, nothing is reused. */
function globalScriptsChanged(program: ts.Program, previous: ProgramAnalysis): boolean {
  const before = new Set([...previous.files.values()].flatMap((f) => f.dependencies));
  for (const file of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(file) || ts.isExternalModule(file)) continue;
    if (!before.has(file) && !program.isSourceFileFromExternalLibrary(file)) return true;
  }
  return false;
}

function describeTool(tool: AnalyzedTool): string {
  const source = tool.declaration?.source;
  return source ? `${source.exportName} (${source.file}:${source.line})` : tool.candidate.functionName;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
