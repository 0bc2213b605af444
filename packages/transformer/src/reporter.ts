import type { ts } from './front-end/typescript.js';
import { createToolwrightDiagnostic, type DiagnosticArgs, type DiagnosticId, type DiagnosticKey, type ToolwrightDiagnostic } from './diagnostics.js';

export interface ReporterOptions {
  /** Warnings reported as errors (the `strictJson` option makes `anyJson` one). */
  asErrors?: ReadonlySet<DiagnosticId>;
}

/**
 * Collects diagnostics, one per root cause: a second report of the same code at the same span is
 * dropped, even with another path in its message (a bad property of an interface used by ten
 * parameters is reported once, at the property).
 */
export class Reporter {
  readonly diagnostics: ToolwrightDiagnostic[] = [];
  private readonly seen = new Set<string>();
  private errorReports = 0;
  /** Every report made, repeats included: a change means something was reported meanwhile. */
  reports = 0;

  constructor(private readonly options: ReporterOptions = {}) {}

  report(key: DiagnosticKey, args: DiagnosticArgs, node: ts.Node): void {
    const id = key.split('.')[0] as DiagnosticId;
    const diagnostic = createToolwrightDiagnostic(key, args, node, this.options.asErrors?.has(id) ? 'error' : undefined);
    this.reports++;
    if (diagnostic.category === 'error') this.errorReports++;
    const rootCause = `${diagnostic.file.fileName}:${diagnostic.start}:${diagnostic.length}:${diagnostic.code}`;
    if (this.seen.has(rootCause)) return;
    this.seen.add(rootCause);
    this.diagnostics.push(diagnostic);
  }

  /**
   * Errors reported so far, repeats included: a tool whose signature meets an error already reported
   * for another tool (a shared interface) must fail as well.
   */
  get errorCount(): number {
    return this.errorReports;
  }
}
