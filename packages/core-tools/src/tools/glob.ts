import picomatch from 'picomatch';
import { renderedAs } from '@toolwright/registry';
import { tool, type Integer } from '@toolwright/tool';
import { linesWithin, outputBudget } from '../model-text/output-budget.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { walkWorkspace } from '../workspace/tree-scan.js';
import { CoreToolError } from '../core-tool-error.js';

export interface GlobResult {
  /** Matching file paths, relative to the searched directory, newest first. */
  files: string[];
  /** Whether more files matched than `limit` (or than fit the output budget: see `omitted`). */
  truncated: boolean;
  /** Matching paths left out when the list was cut to fit the call's output budget (those past `limit` included). */
  omitted?: Integer;
}

/** Room kept for the line that says what was left out. */
const FOOTER_ROOM = 200;

/** Finds files by name pattern. */
export class GlobTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  // The description lives in the options: its glob examples contain `*/`, which would end a JSDoc comment.
  /**
   * @param pattern Glob pattern, relative to `path`.
   * @param path Directory to search in (default: the workspace root).
   * @param limit Maximum number of paths.
   */
  @renderedAs(renderGlob)
  @tool({
    description:
      "Finds files whose path matches a glob pattern (e.g. `src/**/*.ts`, `**/package.json`), newest first (by modification time). `*` matches within one path segment, `**` across segments, `{a,b}` either. Files ignored by `.gitignore`, the `.git` and `.toolwright` folders and paths a policy rule hides are skipped. Returns at most `limit` paths (default 200), one per line, and no more than fits the call's output budget; the last line says when more matched.",
    tier: 'read-only',
    group: 'search',
    sideEffects: ['fs-read'],
    capabilities: ['fs.read'],
    determinism: 'deterministic',
    timeout: '30s',
  })
  async glob(pattern: string, path: string = '.', /** @minimum 1 @maximum 5000 */ limit: Integer = 200): Promise<GlobResult> {
    if (pattern.trim() === '') throw new CoreToolError('invalid_pattern', 'The pattern is empty; give a glob such as `**/*.ts`.');
    const resolved = this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' });
    const matches = picomatch(pattern, { dot: true });
    const files = walkWorkspace(this.env.workspace, resolved.absolute).entries.filter((e) => e.kind === 'file' && matches(e.relative));
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : 1));
    const paths = files.slice(0, limit).map((e) => e.relative);
    const shown = linesWithin(paths, outputBudget() - FOOTER_ROOM);
    if (shown === paths.length) return { files: paths, truncated: files.length > limit };
    return { files: paths.slice(0, shown), truncated: true, omitted: files.length - shown };
  }
}

/**
 * One path per line, then a line saying what was left out.
 * @example 'src/a.ts\nsrc/b.ts\n[2 of 9 matching paths shown; ...]'
 */
export function renderGlob(result: GlobResult): string {
  const lines = [...result.files];
  const narrow = 'narrow the pattern or search a subdirectory (path)';
  if (result.omitted)
    lines.push(`[${result.files.length} of ${result.files.length + result.omitted} matching paths shown, newest first; the rest did not fit: ${narrow}]`);
  else if (result.truncated) lines.push(`[the first ${result.files.length} matching paths (the limit), newest first; more matched: raise limit or ${narrow}]`);
  else if (lines.length === 0) lines.push('[no files match]');
  return lines.join('\n');
}
