import ts from 'typescript';
import { createSourceTransformer, withToolDiagnostics } from '@toolwright/transformer';
import { createCompilerHost } from '../compiler-host.js';
import { loadProject } from '../load-project.js';
import { transformerSettings } from '../transformer-settings.js';

export interface BuildOptions {
  project: string;
  cwd?: string;
  /** Print diagnostics with colours and code frames (default: when stderr is a terminal). */
  pretty?: boolean;
}

export interface BuildResult {
  errorCount: number;
  emitSkipped: boolean;
  elapsedMs: number;
}

/**
 * `toolwright build`: compiles a project like `tsc -p` with Toolwright's transformers driven through
 * the compiler API — no ts-patch, no patched compiler — which measured as the fastest route (see
 * `tools/bench/build-time.mjs`). Tool diagnostics fail the build like type errors; the emitted
 * JavaScript carries every declaration. The tsconfig's `plugins` entries need not be present; a
 * `"warnings": "error"` on a `@toolwright/transformer/program` entry and `"strictJson": true` on
 * either entry are honoured.
 */
export function build(options: BuildOptions, write: (text: string) => void = (t) => process.stderr.write(t)): BuildResult {
  const started = performance.now();
  const project = loadProject(options.project, options.cwd, 'toolwright build');
  const settings = transformerSettings(project.parsed.options);
  const program = withToolDiagnostics(
    ts.createProgram({
      rootNames: project.parsed.fileNames,
      options: project.parsed.options,
      projectReferences: project.parsed.projectReferences,
      host: createCompilerHost(project.parsed.options),
    }),
    { rootDir: project.rootDir, ...settings },
  );
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  const emitted = program.emit(undefined, undefined, undefined, false, {
    before: [createSourceTransformer(program, settings.strictJson ? { strictJson: true } : {})],
  });
  diagnostics.push(...emitted.diagnostics);
  const all = ts.sortAndDeduplicateDiagnostics(diagnostics);
  if (all.length > 0) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => options.cwd ?? process.cwd(), getNewLine: () => '\n' };
    const pretty = options.pretty ?? Boolean(process.stderr.isTTY);
    write(pretty ? ts.formatDiagnosticsWithColorAndContext(all, host) : ts.formatDiagnostics(all, host));
  }
  const errorCount = all.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  if (errorCount > 0) write(`\nFound ${errorCount} error${errorCount === 1 ? '' : 's'}.\n`);
  return { errorCount, emitSkipped: emitted.emitSkipped, elapsedMs: performance.now() - started };
}
