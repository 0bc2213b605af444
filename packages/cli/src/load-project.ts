import path from 'node:path';
import ts from 'typescript';
import { CliError } from './cli-error.js';
import { requireCompilerApi } from './compiler-api.js';

export interface LoadedProject {
  configPath: string;
  rootDir: string;
  parsed: ts.ParsedCommandLine;
}

/** Reads a tsconfig the way `tsc -p` does; problems in it become a CliError with tsc's own text. */
export function loadProject(project: string, cwd: string = process.cwd(), what = 'toolwright emit'): LoadedProject {
  requireCompilerApi(what);
  let configPath = path.resolve(cwd, project);
  if (ts.sys.directoryExists(configPath)) configPath = path.join(configPath, 'tsconfig.json');
  if (!ts.sys.fileExists(configPath)) throw new CliError(`Cannot find a tsconfig at '${configPath}'. Pass --project <path to tsconfig.json>.`, 2);
  const problems: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic),
    },
  );
  if (!parsed || problems.length > 0) throw new CliError(formatTsDiagnostics(problems), 2);
  const errors = parsed.errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new CliError(formatTsDiagnostics(errors), 2);
  return { configPath, rootDir: path.dirname(configPath), parsed };
}

export function formatTsDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts
    .formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    })
    .trimEnd();
}
