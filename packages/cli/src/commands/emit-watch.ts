import ts from 'typescript';
import { createIncrementalAnalyzer } from '@toolwright/transformer';
import { CliError } from '../cli-error.js';
import { loadProject } from '../load-project.js';
import { writeOutputs, type EmitOptions, type EmitResult } from './emit.js';

export interface WatchHandle {
  close(): void;
}

/**
 * `toolwright emit --watch`: keeps a TypeScript watch program and re-emits after every change.
 * Unchanged files keep their SourceFile objects between programs, so tools whose signature types
 * come only from unchanged files are reused instead of analysed again.
 */
export function emitWatch(options: EmitOptions, onResult: (result: EmitResult | Error) => void = () => {}, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): WatchHandle {
  const project = loadProject(options.project, options.cwd);
  const analyze = createIncrementalAnalyzer({ rootDir: project.rootDir });
  let started = performance.now();
  const host = ts.createWatchCompilerHost(
    project.configPath,
    { noEmit: true },
    { ...ts.sys, clearScreen: undefined },
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    () => {},
    () => {},
  );
  host.onWatchStatusChange = (diagnostic) => {
    if (diagnostic.code === 6032 /* File change detected */) started = performance.now();
  };
  host.afterProgramCreate = (builder) => {
    const program = builder.getProgram();
    try {
      onResult(writeOutputs(program, analyze(program), project, options, started, log));
    } catch (error) {
      if (error instanceof CliError) log(error.message);
      onResult(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const watch = ts.createWatchProgram(host);
  log('Watching for changes to tool signatures...');
  return { close: () => watch.close() };
}
