import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { analyzeProgram, type AnalyzeOptions, type ProgramAnalysis } from '../src/index.js';

/**
 * Compiler options of the fixture programs: strict, and `@toolwright/*` resolved to their sources. No `@types` unless
 * a fixture references them (`/// <reference types="node" />`): a tool's schema never depends on them, and binding
 * @types/node into every fixture's program was a fifth of the fixtures' time (more on TypeScript 7's side).
 */
export const FIXTURE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['@toolwright/source'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/**
 * Analyses one fixture's `input.ts` (plus any sibling files it imports) through the real compiler,
 * with the analysis options of its `options.json` when it has one (e.g. `{ "strictJson": true }`).
 */
export function compileFixture(dir: string, options: ts.CompilerOptions = FIXTURE_OPTIONS): { program: ts.Program; analysis: ProgramAnalysis } {
  const program = ts.createProgram({ rootNames: [path.join(dir, 'input.ts')], options, host: sharingHost(options, dir) });
  return { program, analysis: analyzeProgram(program, { ...fixtureAnalyzeOptions(dir), rootDir: dir }) };
}

/**
 * Compiles the fixtures in `dirs` together, in one program made at the first call — the libraries and the packages'
 * sources read, bound and checked once, not once a fixture (a fixture's own program spent most of its time on them) —
 * and analyses each fixture's own files alone (`AnalyzeOptions.files`: its wire names unique among its own tools), as its
 * own program would. A fixture that references a library (`/// <reference types="node" />`) is compiled on its own, so
 * that the library's globals reach no other fixture; so is one not in `dirs`.
 */
export function fixtureCompiler(
  dirs: readonly string[],
  options: ts.CompilerOptions = FIXTURE_OPTIONS,
): (dir: string) => { program: ts.Program; analysis: ProgramAnalysis } {
  const together = dirs.filter((dir) => !/^\/\/\/\s*<reference\s/m.test(fs.readFileSync(path.join(dir, 'input.ts'), 'utf8')));
  let program: ts.Program | undefined;
  return (dir) => {
    if (!together.includes(dir)) return compileFixture(dir, options);
    program ??= ts.createProgram({ rootNames: together.map((d) => path.join(d, 'input.ts')), options, host: sharingHost(options, commonFolder(together)) });
    const own = `${path.resolve(dir)}${path.sep}`;
    const files = program
      .getSourceFiles()
      .filter((file) => path.resolve(file.fileName).startsWith(own))
      .map((file) => file.fileName);
    return { program, analysis: analyzeProgram(program, { ...fixtureAnalyzeOptions(dir), rootDir: dir, files }) };
  };
}

/** The folder holding every one of `dirs`. */
function commonFolder(dirs: readonly string[]): string {
  let folder = path.resolve(dirs[0] ?? '.');
  while (!dirs.every((dir) => `${path.resolve(dir)}${path.sep}`.startsWith(`${folder}${path.sep}`))) folder = path.dirname(folder);
  return folder;
}

/** A fixture's analysis options: those of its `options.json` (e.g. `{ "strictJson": true }`), else none. */
function fixtureAnalyzeOptions(dir: string): Omit<AnalyzeOptions, 'rootDir' | 'previous' | 'files'> {
  const optionsFile = path.join(dir, 'options.json');
  return fs.existsSync(optionsFile) ? (JSON.parse(fs.readFileSync(optionsFile, 'utf8')) as Omit<AnalyzeOptions, 'rootDir' | 'previous' | 'files'>) : {};
}

/**
 * The compiler's errors in a fixture's own files (and the program's options and globals), as an editor shows them
 * for the fixture: the packages' sources it imports are checked by their own build, not again for every fixture.
 */
export function fixtureTypeErrors(program: ts.Program, dir: string): string[] {
  const own = `${path.resolve(dir)}${path.sep}`;
  const files = program.getSourceFiles().filter((file) => path.resolve(file.fileName).startsWith(own));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ].map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/**
 * The files fixtures share (the default library, the packages' sources, `@types/node` where one references it) parsed once per
 * test file, as an editor's document registry keeps them between programs: a parsed and bound file depends on
 * nothing outside itself. A fixture's own files are read afresh.
 */
const shared = new Map<string, ts.SourceFile | undefined>();
function sharingHost(options: ts.CompilerOptions, dir: string): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const own = `${path.resolve(dir)}${path.sep}`;
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (path.resolve(fileName).startsWith(own)) return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    const version = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}\0${version.languageVersion}\0${version.impliedNodeFormat ?? ''}\0${version.jsDocParsingMode ?? ''}`;
    if (!shared.has(key)) shared.set(key, getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate));
    return shared.get(key);
  };
  return host;
}
