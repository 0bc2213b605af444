import ts from 'typescript';
import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolwrightDiagnostic } from '../diagnostics.js';
import { analyzeSignature, type ToolCandidate } from './analyze-signature.js';
import { findTools } from './find-tools.js';
import { JsDocReader } from './jsdoc-reader.js';
import { Reporter } from './reporter.js';
import { ToolCalleeResolver } from './tool-callee.js';

/** A tool found in the program, with its declaration when it had no errors. */
export interface AnalyzedTool {
  candidate: ToolCandidate;
  declaration?: ToolDeclaration;
}

export interface ProgramAnalysis {
  tools: AnalyzedTool[];
  /** Declarations by the node the source transformer rewrites. */
  bySite: Map<ts.Node, ToolDeclaration>;
  diagnostics: ToolwrightDiagnostic[];
  /** Number of files that hold at least one tool. */
  fileCount: number;
}

const cache = new WeakMap<ts.Program, ProgramAnalysis>();

/**
 * Analyses every tool of a program once; the program transformer (diagnostics), the source
 * transformer (emission), the language service plugin and `toolwright emit` all share the result.
 * Never throws for user code: an unexpected failure on one tool becomes a TW1015 diagnostic.
 */
export function analyzeProgram(program: ts.Program, options: { rootDir?: string } = {}): ProgramAnalysis {
  const cached = cache.get(program);
  if (cached) return cached;
  const checker = program.getTypeChecker();
  const reporter = new Reporter();
  const docs = new JsDocReader();
  const callee = new ToolCalleeResolver(checker, (file) => ts.sys.readFile(file));
  const rootDir = options.rootDir ?? program.getCompilerOptions().rootDir ?? program.getCurrentDirectory();
  const tools: AnalyzedTool[] = [];
  const isLibFile = (file: ts.SourceFile) => program.isSourceFileDefaultLibrary(file);
  let fileCount = 0;

  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || program.isSourceFileFromExternalLibrary(sourceFile)) continue;
    let candidates: ToolCandidate[];
    try {
      candidates = findTools(sourceFile, checker, callee, reporter);
    } catch (error) {
      reporter.report('unexpectedConstruct', { tool: sourceFile.fileName, problem: describeError(error) }, sourceFile);
      continue;
    }
    if (candidates.length > 0) fileCount++;
    for (const candidate of candidates) {
      try {
        const declaration = analyzeSignature(candidate, { checker, reporter, docs, rootDir, isLibFile });
        tools.push(declaration ? { candidate, declaration } : { candidate });
      } catch (error) {
        reporter.report('unexpectedConstruct', { tool: candidate.functionName, problem: describeError(error) }, candidate.nameNode);
        tools.push({ candidate });
      }
    }
  }

  const bySite = new Map<ts.Node, ToolDeclaration>();
  const byName = new Map<string, AnalyzedTool>();
  for (const entry of tools) {
    const { declaration, candidate } = entry;
    if (!declaration) continue;
    const first = byName.get(declaration.name);
    if (first) {
      reporter.report('duplicateToolName', { name: declaration.name, other: describeTool(first) }, candidate.nameNode);
      delete entry.declaration;
      continue;
    }
    byName.set(declaration.name, entry);
    bySite.set(candidate.site, declaration);
  }

  const analysis: ProgramAnalysis = { tools, bySite, diagnostics: reporter.diagnostics, fileCount };
  cache.set(program, analysis);
  return analysis;
}

function describeTool(tool: AnalyzedTool): string {
  const source = tool.declaration?.source;
  return source ? `${source.exportName} (${source.file}:${source.line})` : tool.candidate.functionName;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
