import type { ToolwrightDiagnostic } from './diagnostics.js';

/**
 * Prints a diagnostic as `toolwright emit` does (and as the compile-fail fixtures pin it):
 * the code, the message, the hint, and a code frame underlining the offending span.
 */
export function formatDiagnostic(diagnostic: ToolwrightDiagnostic, options: { fileName?: string } = {}): string {
  const { file, start, length } = diagnostic;
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  const lines = file.text.split(/\r?\n/);
  const gutter = String(line + 1).length;
  const text = lines[line] ?? '';
  const width = Math.max(1, Math.min(length, text.length - character));
  const location = `${options.fileName ?? file.fileName}:${line + 1}:${character + 1}`;
  return [
    `${location} - ${diagnostic.category} TW${diagnostic.code}: ${diagnostic.message}`,
    `  ${String(line + 1).padStart(gutter)} | ${text}`,
    `  ${' '.repeat(gutter)} | ${' '.repeat(character)}${'^'.repeat(width)}`,
    `  hint: ${diagnostic.hint}`,
  ].join('\n');
}

export function formatDiagnostics(diagnostics: readonly ToolwrightDiagnostic[], options: { fileName?: (file: string) => string } = {}): string {
  return [...diagnostics]
    .sort((a, b) => (a.file.fileName === b.file.fileName ? a.start - b.start : a.file.fileName < b.file.fileName ? -1 : 1))
    .map((d) => formatDiagnostic(d, options.fileName ? { fileName: options.fileName(d.file.fileName) } : {}))
    .join('\n\n');
}
