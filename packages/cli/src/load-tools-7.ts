import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolRegistry } from '@toolwright/registry';
import { setSourceBase } from '@toolwright/sources';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { analyzeTypeScript7, formatDiagnostics, loadTypeScript7 } from '@toolwright/transformer';
import { CliError } from './cli-error.js';
import { commonRoot } from './common-root.js';
import { registerToolModules, type LoadedTools } from './load-tools.js';
import type { ProjectTypeScript } from './project-typescript.js';
import { strictJsonOf } from './transformer-settings.js';

/**
 * The tools of a TypeScript 7 project (`--project` where the project's `typescript` is 7): the native
 * compiler reads their declarations from the sources, and they run from the JavaScript the project's
 * own `tsc` (tsgo) built — TypeScript 7 compiles nothing in this process. A module that is missing, or
 * older than its source, stops with what to run.
 */
export async function loadProjectTools7(
  projectPath: string,
  typescript: ProjectTypeScript,
  registry = new ToolRegistry(),
  perSession: ReadonlySet<string> = new Set(),
): Promise<LoadedTools> {
  let configPath = path.resolve(projectPath);
  if (fs.existsSync(configPath) && fs.statSync(configPath).isDirectory()) configPath = path.join(configPath, 'tsconfig.json');
  if (!fs.existsSync(configPath)) throw new CliError(`Cannot find a tsconfig at '${configPath}'. Pass --project <path to tsconfig.json>.`, 2);
  if (!typescript.packageDir) throw new CliError('No TypeScript 7 package was found for this project (npm i -D typescript@7).', 2);
  const compiler = await loadTypeScript7(typescript.packageDir);
  const open = compiler.openProject(configPath);
  let tools: { declaration: ToolDeclaration; sourceFile: string; exportName: string }[];
  let output: (sourceFile: string) => string;
  try {
    const options = open.project.compilerOptions as { outDir?: string; rootDir?: string; plugins?: unknown };
    const analysis = analyzeTypeScript7(compiler, open, { rootDir: path.dirname(configPath), ...strictJsonOf(options as never) });
    const errors = analysis.diagnostics.filter((diagnostic) => diagnostic.category === 'error');
    if (errors.length > 0) throw new CliError(formatDiagnostics(errors, { fileName: (file) => path.relative(process.cwd(), file) }), 1);
    tools = analysis.tools.flatMap((tool) =>
      tool.declaration
        ? [{ declaration: tool.declaration, sourceFile: tool.candidate.fn.getSourceFile().fileName, exportName: tool.candidate.exportName }]
        : [],
    );
    output = outputOf(configPath, options, open.project.program.getSourceFileNames());
  } finally {
    open.close();
  }
  const modules = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    const file = output(tool.sourceFile);
    let exports = modules.get(file);
    if (!exports) {
      if (!fs.existsSync(file) || fs.statSync(file).mtimeMs < fs.statSync(tool.sourceFile).mtimeMs)
        throw new CliError(
          `${path.relative(process.cwd(), file)} is ${fs.existsSync(file) ? 'older than' : 'not built from'} ${path.relative(process.cwd(), tool.sourceFile)}: TypeScript 7 compiles nothing in this process, so the project's tools run from what its tsc builds. Run tsc -p ${path.relative(process.cwd(), configPath)} first.`,
          2,
        );
      exports = await loadModule(file);
      modules.set(file, exports);
    }
    const [binding, ...members] = tool.exportName.split('.');
    let target: unknown = exports[binding!];
    for (const member of members) target = (target as Record<string, unknown> | undefined)?.[member];
    if (typeof target !== 'function')
      throw new CliError(
        `${path.relative(process.cwd(), file)} has no function '${tool.exportName}' (the tool '${tool.declaration.name}'); build the project again.`,
        2,
      );
    attachToolDeclaration(target as () => unknown, tool.declaration);
    // A source form's relative paths are relative to its declaring file, which tsgo's output does not say.
    if (tool.declaration.source?.runs) setSourceBase(target, path.dirname(tool.sourceFile));
  }
  return registerToolModules([...modules.values()], registry, perSession);
}

/** Where tsc writes a source file's JavaScript: under outDir by its path from rootDir (the sources' common folder by default), else beside it. */
function outputOf(configPath: string, options: { outDir?: string; rootDir?: string }, fileNames: readonly string[]): (sourceFile: string) => string {
  const configDir = path.dirname(configPath);
  const sources = fileNames.filter((file) => /\.(m|c)?tsx?$/.test(file) && !/\.d\.(m|c)?tsx?$/.test(file) && !file.split(/[\\/]/).includes('node_modules'));
  const rootDir = options.rootDir ? path.resolve(configDir, options.rootDir) : commonRoot(sources);
  const extension = (file: string) =>
    file
      .replace(/\.mts$/, '.mjs')
      .replace(/\.cts$/, '.cjs')
      .replace(/\.tsx?$/, '.js');
  return (sourceFile) => extension(options.outDir ? path.join(path.resolve(configDir, options.outDir), path.relative(rootDir, sourceFile)) : sourceFile);
}

/** CommonJS through require, an ES module through import (by the extension, or the package's `type`). */
async function loadModule(file: string): Promise<Record<string, unknown>> {
  try {
    return createRequire(file)(file) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM') throw error;
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  }
}
