import type ts from 'typescript/lib/tsserverlibrary';
import { createIncrementalAnalyzer, toTsDiagnostic } from '@toolwright/transformer';

/**
 * Wraps a language service so `getSemanticDiagnostics` also returns Toolwright's diagnostics for the
 * file, computed by the same analysis the transformer runs at build time. One analysis per program
 * version serves every file of it, and an edit re-analyses only the edited file and its importers.
 * `strictJson` (from the plugin entry, as on the transformer's) reports any-JSON parameters as errors.
 */
export function decorateLanguageService(
  service: ts.LanguageService,
  log: (message: string) => void,
  options: { strictJson?: boolean } = {},
): ts.LanguageService {
  const analyze = createIncrementalAnalyzer(options.strictJson ? { strictJson: true } : {});
  const proxy = Object.create(null) as ts.LanguageService;
  for (const key of Object.keys(service) as (keyof ts.LanguageService)[]) {
    const member: unknown = Reflect.get(service, key);
    (proxy as unknown as Record<string, unknown>)[key] = typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(service) : member;
  }
  proxy.getSemanticDiagnostics = (fileName) => {
    const own = service.getSemanticDiagnostics(fileName);
    try {
      const program = service.getProgram();
      if (!program) return own;
      const extra = analyze(program)
        .diagnostics.filter((d) => d.file.fileName === fileName)
        .map((d) => toTsDiagnostic(d));
      return [...own, ...extra];
    } catch (error) {
      // An editor must keep working whatever the plugin meets: log and fall back to TypeScript's own diagnostics.
      log(`toolwright: analysis failed for ${fileName}: ${error instanceof Error ? error.stack : String(error)}`);
      return own;
    }
  };
  return proxy;
}
