import ts from 'typescript';
import { createIncrementalAnalyzer } from '@toolwright/transformer';
import { strictJsonOf } from '../transformer-settings.js';
import { CliError } from '../cli-error.js';
import { createCompilerHost } from '../compiler-host.js';
import { loadProject } from '../load-project.js';
import { EMITTING_AFTER_CHANGE, watchSources } from '../watch-sources.js';
import { syntaxErrorsOf, writeOutputs, type EmitOptions, type EmitResult } from './emit.js';

export interface WatchHandle {
  close(): void;
}

/**
 * `toolwright emit --watch`: re-emits after every change to the project's TypeScript files.
 *
 * TypeScript's own watch host waits 250 ms after a change before rebuilding; this watcher listens with
 * `fs.watch` and rebuilds after a short settle, reusing the previous program (unchanged files keep
 * their SourceFile objects through a caching host) and the previous analysis (tools whose signature
 * types come only from unchanged files are not analysed again).
 */
export function emitWatch(
  options: EmitOptions,
  onResult: (result: EmitResult | Error) => void = () => {},
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): WatchHandle {
  const project = loadProject(options.project, options.cwd, 'toolwright emit --watch');
  const analyze = createIncrementalAnalyzer({ rootDir: project.rootDir, ...strictJsonOf(project.parsed.options) });
  const sources = new Map<string, { text: string; file: ts.SourceFile }>();
  const host = createCompilerHost(project.parsed.options);
  const createSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = ts.sys.readFile(fileName);
    const cached = sources.get(fileName);
    if (cached && text !== undefined && cached.text === text) return cached.file;
    const file = createSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file && text !== undefined) sources.set(fileName, { text, file });
    return file;
  };

  let program: ts.Program | undefined;
  let closed = false;
  const build = (started: number) => {
    if (closed) return;
    try {
      const current = loadProject(project.configPath);
      program = ts.createProgram({
        rootNames: current.parsed.fileNames,
        options: { ...current.parsed.options, noEmit: true },
        host,
        ...(program ? { oldProgram: program } : {}),
      });
      onResult(writeOutputs(analyze(program), project, options, started, log, syntaxErrorsOf(program)));
    } catch (error) {
      if (error instanceof CliError) log(error.message);
      onResult(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const watcher = watchSources(project.rootDir, (_files, started) => {
    log(EMITTING_AFTER_CHANGE);
    build(started);
  });
  build(performance.now());
  log('Watching for changes to tool signatures...');
  return {
    close: () => {
      closed = true;
      watcher.close();
    },
  };
}
