import type ts from 'typescript';
import { createToolwrightDiagnostic, type DiagnosticId, type ToolwrightDiagnostic } from '../diagnostics.js';

/** Collects diagnostics, dropping exact repeats (one bad interface used by two tools is reported once). */
export class Reporter {
  readonly diagnostics: ToolwrightDiagnostic[] = [];
  private readonly seen = new Set<string>();

  report(id: DiagnosticId, args: Record<string, string | number>, node: ts.Node): void {
    const diagnostic = createToolwrightDiagnostic(id, args, node);
    const key = `${diagnostic.file.fileName}:${diagnostic.start}:${diagnostic.code}:${diagnostic.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.diagnostics.push(diagnostic);
  }

  get errorCount(): number {
    return this.diagnostics.filter((d) => d.category === 'error').length;
  }
}
