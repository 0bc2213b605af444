import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import toolwrightTransformer, { analyzeProgram, formatDiagnostics } from '@toolwright/transformer';
import { CliError } from './cli-error.js';
import { createCompilerHost } from './compiler-host.js';
import { strictJsonOf } from './transformer-settings.js';
import type { LoadedProject } from './load-project.js';

export interface CompiledProject {
  /** Absolute paths of the emitted JS files that define tools. */
  toolModules: string[];
  outDir: string;
}

/**
 * Compiles a project with the Toolwright transformers through the compiler API (no ts-patch), into a
 * cache folder inside the project's `node_modules/.cache/toolwright/`, so its package imports resolve.
 * Only JavaScript is emitted; the output is CommonJS whatever the project says, so the CLI can load it.
 */
export function compileProject(project: LoadedProject): CompiledProject {
  const key = crypto.createHash('sha256').update(project.configPath).digest('hex').slice(0, 12);
  const outDir = path.join(project.rootDir, 'node_modules', '.cache', 'toolwright', key);
  const rootDir = project.parsed.options.rootDir ?? commonRoot(project.parsed.fileNames);
  const options: ts.CompilerOptions = {
    ...project.parsed.options,
    outDir,
    rootDir,
    noEmit: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    composite: false,
    incremental: false,
    emitDeclarationOnly: false,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    ignoreDeprecations: '6.0',
    verbatimModuleSyntax: false,
    noEmitOnError: false,
  };
  delete options.tsBuildInfoFile;
  const program = ts.createProgram({ rootNames: project.parsed.fileNames, options, host: createCompilerHost(options) });
  const settings = strictJsonOf(project.parsed.options);
  const analysis = analyzeProgram(program, { rootDir: project.rootDir, ...settings });
  const errors = analysis.diagnostics.filter((d) => d.category === 'error');
  if (errors.length > 0) throw new CliError(formatDiagnostics(errors, { fileName: (f) => path.relative(process.cwd(), f) }), 1);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  program.emit(undefined, undefined, undefined, false, { before: [toolwrightTransformer(program, settings)] });
  const files = new Set(analysis.tools.filter((t) => t.declaration).map((t) => t.candidate.fn.getSourceFile().fileName));
  const toolModules = [...files].map((file) => path.join(outDir, path.relative(rootDir, file)).replace(/\.(m|c)?tsx?$/, '.js'));
  return { toolModules, outDir };
}

/** Loads the compiled modules in this process. */
export function requireCompiled(file: string): Record<string, unknown> {
  const load = createRequire(file);
  return load(file) as Record<string, unknown>;
}

/** The deepest folder holding every file (tsc's default rootDir). */
export function commonRoot(files: readonly string[]): string {
  if (files.length === 0) return process.cwd();
  let root = path.dirname(files[0]!);
  for (const file of files) while (!file.startsWith(`${root}${path.sep}`) && root !== path.dirname(root)) root = path.dirname(root);
  return root;
}
