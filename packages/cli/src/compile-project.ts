import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import toolwrightTransformer, { analyzeProgram, formatDiagnostics } from '@toolwright/transformer';
import { CliError } from './cli-error.js';
import { createCompilerHost } from './compiler-host.js';
import { strictJsonOf } from './transformer-settings.js';
import type { LoadedProject } from './load-project.js';
import { commonRoot } from './common-root.js';
import { buildFolder, recordBuild, type ModuleFormat, type ProjectBuild } from './project-build-cache.js';

/** Module kinds whose emit follows each file's own format (package.json `type`, `.mts`/`.cts`). */
function followsEachFile(kind: ts.ModuleKind | undefined): boolean {
  return kind === ts.ModuleKind.Node16 || kind === ts.ModuleKind.Node18 || kind === ts.ModuleKind.Node20 || kind === ts.ModuleKind.NodeNext;
}

/**
 * The module system a project runs as: ES modules when the package.json nearest its tsconfig says `"type": "module"`
 * (as Node decides), else CommonJS. `import.meta`, top-level `await` and ES-only dependencies need the first.
 */
export function moduleFormatOf(project: LoadedProject): ModuleFormat {
  for (let dir = project.rootDir; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      try {
        return (JSON.parse(fs.readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
      } catch {
        return 'commonjs'; // tsc and Node report a broken package.json themselves
      }
    }
    if (dir === path.dirname(dir)) return 'commonjs';
  }
}

/**
 * Compiles a project with the Toolwright transformers through the compiler API (no ts-patch), into a
 * cache folder inside the project's `node_modules/.cache/toolwright/`, so its package imports resolve.
 * Only JavaScript is emitted, for the module system the project runs as (`moduleFormatOf`): CommonJS, or
 * ES modules as its tsconfig's `module` emits them (`nodenext` and friends per file; else `esnext`).
 */
export function compileProject(project: LoadedProject): ProjectBuild {
  const outDir = buildFolder(project.configPath);
  const rootDir = project.parsed.options.rootDir ?? commonRoot(project.parsed.fileNames);
  const format = moduleFormatOf(project);
  const own = project.parsed.options;
  const modules: ts.CompilerOptions =
    format === 'commonjs'
      ? { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }
      : followsEachFile(own.module)
        ? { module: own.module!, ...(own.moduleResolution !== undefined ? { moduleResolution: own.moduleResolution } : {}) }
        : {
            module: ts.ModuleKind.ESNext,
            moduleResolution:
              own.moduleResolution === undefined || own.moduleResolution === ts.ModuleResolutionKind.Node10
                ? ts.ModuleResolutionKind.Bundler
                : own.moduleResolution,
          };
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
    ...modules,
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
  fs.writeFileSync(path.join(outDir, 'package.json'), `{ "type": "${format}" }\n`);
  program.emit(undefined, undefined, undefined, false, { before: [toolwrightTransformer(program, settings)] });
  const sources = [
    ...new Set([
      ...analysis.tools.filter((t) => t.declaration).map((t) => t.candidate.fn.getSourceFile().fileName),
      ...handDeclaringFiles(program, project.parsed.fileNames),
    ]),
  ];
  const toolModules = sources.map((file) =>
    path.join(outDir, path.relative(rootDir, file)).replace(/\.(m|c)?(ts|tsx)$/, (_, kind: string | undefined) => `.${kind ?? ''}js`),
  );
  const build: ProjectBuild = { toolModules, sources, outDir, format };
  recordBuild(
    build,
    [...program.getSourceFiles().map((file) => file.fileName), project.configPath, ...extendedConfigs(project), ...packageJsonOf(project)],
    sourceFolders(project),
  );
  return build;
}

/**
 * The project's files that declare tools by hand and export them (`export const name = attachToolDeclaration(fn,
 * declaration)`: a schema published elsewhere, a generated module), which the analysis of `@tool` functions does not
 * see: they are loaded too. Test files (`*.test.*`, `*.spec.*`, `__tests__/`) are not: loading runs a module's code.
 */
function handDeclaringFiles(program: ts.Program, fileNames: readonly string[]): string[] {
  const found: string[] = [];
  for (const fileName of fileNames) {
    if (/\.(test|spec)\.[cm]?[jt]sx?$|[\\/]__tests__[\\/]/.test(fileName)) continue;
    const file = program.getSourceFile(fileName);
    if (!file || file.isDeclarationFile || !file.text.includes('attachToolDeclaration')) continue;
    if (file.statements.some(exportsHandDeclaredTool)) found.push(file.fileName);
  }
  return found;
}

/** `export const x = attachToolDeclaration(...)` or `export default attachToolDeclaration(...)`. */
function exportsHandDeclaredTool(statement: ts.Statement): boolean {
  const declares = (expression: ts.Expression | undefined) =>
    expression !== undefined &&
    ts.isCallExpression(expression) &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === 'attachToolDeclaration';
  if (ts.isExportAssignment(statement)) return declares(statement.expression);
  if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) return false;
  return statement.declarationList.declarations.some((declaration) => declares(declaration.initializer));
}

/** The tsconfigs the project's extends (a change there changes the build). */
function extendedConfigs(project: LoadedProject): string[] {
  const configFile = project.parsed.options.configFile as { extendedSourceFiles?: string[] } | undefined;
  return configFile?.extendedSourceFiles ?? [];
}

/** The package.json that says which module system the project runs as. */
function packageJsonOf(project: LoadedProject): string[] {
  for (let dir = project.rootDir; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return [path.join(dir, 'package.json')];
    if (dir === path.dirname(dir)) return [];
  }
}

/** Every folder the tsconfig's `include` may find files in (outside node_modules), and those of its listed files. */
function sourceFolders(project: LoadedProject): string[] {
  const folders = new Set(project.parsed.fileNames.map((file) => path.dirname(path.resolve(file))));
  for (const [dir, flags] of Object.entries(project.parsed.wildcardDirectories ?? {})) {
    const walk = (folder: string, depth: number) => {
      folders.add(folder);
      if (!(flags & ts.WatchDirectoryFlags.Recursive) || depth > 32) return;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries)
        if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path.join(folder, entry.name), depth + 1);
    };
    walk(path.resolve(dir), 0);
  }
  return [...folders];
}
