import path from 'node:path';
import ts from 'typescript';

/** The internal `Program` methods tsc itself uses to place a file's output and choose its module format. */
interface ProgramInternals {
  getCommonSourceDirectory?(): string;
  getEmitModuleFormatOfFile?(sourceFile: ts.SourceFile): ts.ModuleKind;
}

/**
 * The arguments that tell a source form where its declaring file is, so its relative paths resolve wherever the
 * output runs: the declaring directory relative to the file's JavaScript output, and that output's own location
 * at run time (`import.meta.url` for ES modules, `__filename` for CommonJS).
 * @example source.wasm('./slug.wasm', options, declaration, "../src", import.meta.url)   // outDir dist, rootDir .
 * An output that cannot say where it runs (`outFile`, AMD, UMD, System) gets the absolute directory, as before.
 */
export function declaringDirectoryArguments(program: ts.Program, sourceFile: ts.SourceFile, factory: ts.NodeFactory): ts.Expression[] {
  const directory = path.dirname(sourceFile.fileName);
  const anchor = anchorOf(program, sourceFile, factory);
  const outputDirectory = anchor && outputDirectoryOf(program, sourceFile);
  if (!anchor || outputDirectory === undefined) return [factory.createStringLiteral(directory)];
  const relative = path.relative(outputDirectory, directory).replace(/\\/g, '/') || '.';
  return [factory.createStringLiteral(relative), anchor];
}

/** `import.meta.url` or `__filename`, by the module format TypeScript emits the file as. */
function anchorOf(program: ts.Program, sourceFile: ts.SourceFile, factory: ts.NodeFactory): ts.Expression | undefined {
  const format = (program as ProgramInternals).getEmitModuleFormatOfFile?.(sourceFile) ?? fallbackFormatOf(program.getCompilerOptions(), sourceFile);
  if (format === ts.ModuleKind.CommonJS) return factory.createIdentifier('__filename');
  if (format >= ts.ModuleKind.ES2015)
    return factory.createPropertyAccessExpression(factory.createMetaProperty(ts.SyntaxKind.ImportKeyword, factory.createIdentifier('meta')), 'url');
  return undefined;
}

/** What `getEmitModuleFormatOfFile` answers, for a TypeScript without it: the file's own format under `node16`..`nodenext`. */
function fallbackFormatOf(options: ts.CompilerOptions, sourceFile: ts.SourceFile): ts.ModuleKind {
  const kind = options.module ?? ((options.target ?? ts.ScriptTarget.ES5) >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS);
  if (kind >= ts.ModuleKind.Node16 && kind <= ts.ModuleKind.NodeNext)
    return sourceFile.impliedNodeFormat === ts.ModuleKind.ESNext ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS;
  return kind;
}

/**
 * The directory tsc writes the file's JavaScript to: beside the source without `outDir`, else `outDir` plus the
 * file's path below the common source directory (`rootDir`, else the tsconfig's directory, else the files' common
 * folder, as the program computes it). Undefined for one bundled `outFile`.
 */
function outputDirectoryOf(program: ts.Program, sourceFile: ts.SourceFile): string | undefined {
  const options = program.getCompilerOptions();
  if (options.outFile) return undefined;
  if (!options.outDir) return path.dirname(sourceFile.fileName);
  const common =
    (program as ProgramInternals).getCommonSourceDirectory?.() ??
    options.rootDir ??
    (typeof options.configFilePath === 'string' ? path.dirname(options.configFilePath) : undefined);
  if (common === undefined) return undefined;
  const cwd = program.getCurrentDirectory();
  return path.resolve(cwd, options.outDir, path.relative(path.resolve(cwd, common), path.dirname(sourceFile.fileName)));
}
