import ts from 'typescript';
import { analyzeProgram } from '@toolwright/transformer';
import { getToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { CORE_TOOLKITS } from '@toolwright/core-tools';
import { CliError } from '../cli-error.js';
import { createCompilerHost } from '../compiler-host.js';
import { formatTsDiagnostics, loadProject } from '../load-project.js';
import { strictJsonOf } from '../transformer-settings.js';

/** Where a tool's signature is read from: the module that exports it and the expression that names its function. */
export interface ToolSignature {
  declaration: ToolDeclaration;
  /** An absolute source file of the project, or a package specifier (`@toolwright/core-tools`). */
  module: string;
  /** `readFile`, `default`, or `FileReadTool.prototype.fileRead`. */
  exportName: string;
}

/** The core tools' signatures, by wire name: their toolkit classes' `@tool()` methods in `@toolwright/core-tools`. */
export function coreToolSignatures(): Map<string, ToolSignature> {
  const found = new Map<string, ToolSignature>();
  for (const toolkit of CORE_TOOLKITS) {
    const prototype = toolkit.prototype as object;
    for (const key of Object.getOwnPropertyNames(prototype)) {
      const method: unknown = Object.getOwnPropertyDescriptor(prototype, key)?.value;
      const declaration = typeof method === 'function' ? getToolDeclaration(method) : undefined;
      if (declaration) found.set(declaration.name, { declaration, module: '@toolwright/core-tools', exportName: `${toolkit.name}.prototype.${key}` });
    }
  }
  return found;
}

/**
 * A project's tool signatures, by wire name, as `toolwright emit` reads them (the project's sources, with the
 * compiler API; nothing is built). Tools the transformer refuses are left out; a syntax error stops it.
 */
export function projectToolSignatures(project: string): Map<string, ToolSignature> {
  const loaded = loadProject(project, process.cwd(), 'toolwright replay --out');
  const options = { ...loaded.parsed.options, noEmit: true };
  const program = ts.createProgram({
    rootNames: loaded.parsed.fileNames,
    options,
    projectReferences: loaded.parsed.projectReferences,
    host: createCompilerHost(options),
  });
  const syntax = program.getSyntacticDiagnostics();
  if (syntax.length > 0) throw new CliError(formatTsDiagnostics(syntax), 1);
  const analysis = analyzeProgram(program, { rootDir: loaded.rootDir, ...strictJsonOf(loaded.parsed.options) });
  const found = new Map<string, ToolSignature>();
  for (const { declaration, candidate } of analysis.tools) {
    if (declaration) found.set(declaration.name, { declaration, module: candidate.fn.getSourceFile().fileName, exportName: candidate.exportName });
  }
  return found;
}
