import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { linesWithin, modelSize, outputBudget } from '../model-text/output-budget.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { renderName } from '../model-text/render-name.js';
import { GlobFilter, PATHS_PER_JOB } from '../search/glob-filter.js';
import { walkWorkspaceAsync } from '../workspace/tree-scan.js';
import { walkCap, walkCapNote } from '../workspace/walk-cap.js';
import { CoreToolError } from '../core-tool-error.js';
import { useAsJudged } from '../as-judged.js';

export interface GlobResult {
  /** Matching file paths, relative to the searched directory, newest first. */
  files: string[];
  /** Whether more files matched than `limit` (or than fit the output budget: see `omitted`). */
  truncated: boolean;
  /** Matching paths left out when the list was cut to fit the call's output budget (those past `limit` included). */
  omitted?: Integer;
  /** Set when the walk stopped at its cap after looking at this many entries: files further on were not looked at. */
  stoppedAfter?: Integer;
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
      "Finds files whose path matches a glob pattern (e.g. `src/**/*.ts`, `**/package.json`), newest first (by modification time). `*` matches within one path segment, `**` across segments, `{a,b}` either. Files ignored by `.gitignore`, the `.git` and `.toolwright` folders and paths a policy rule hides are skipped. Returns at most `limit` paths (default 200), one per line, and no more than fits the call's output budget; the last line says when more matched, or when the search stopped at its cap of entries looked at (200,000 by default).",
    tier: 'read-only',
    group: 'search',
    sideEffects: ['fs-read'],
    capabilities: ['fs.read'],
    determinism: 'deterministic',
    timeout: '30s',
  })
  async glob(pattern: string, path: string = '.', /** @minimum 1 @maximum 5000 */ limit: Integer = 200): Promise<GlobResult> {
    if (pattern.trim() === '') throw new CoreToolError('invalid_pattern', 'The pattern is empty; give a glob such as `**/*.ts`.');
    const resolved = useAsJudged(this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' }), 'path', path);
    const filter = new GlobFilter([pattern], [], { basename: 'never' });
    const signal = getToolContext()?.signal;
    const files: { relative: string; mtimeMs: number }[] = [];
    let pending: { relative: string; mtimeMs: number }[] = [];
    const match = async () => {
      const batch = pending;
      pending = [];
      const selected = await filter.select(
        batch.map((e) => e.relative),
        signal,
      );
      batch.forEach((entry, i) => selected[i] && files.push(entry));
    };
    const walked = await walkWorkspaceAsync(this.env.workspace, resolved.absolute, { maxVisited: walkCap(this.env), signal }, async (entry) => {
      if (entry.kind !== 'file') return;
      pending.push({ relative: entry.relative, mtimeMs: entry.mtimeMs });
      if (pending.length >= PATHS_PER_JOB) await match();
    });
    await match();
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : 1));
    const stopped = walked.capped ? { stoppedAfter: walked.visited } : {};
    const paths = files.slice(0, limit).map((e) => e.relative);
    const shown = linesWithin(paths.map(renderName), outputBudget() - FOOTER_ROOM - (walked.capped ? modelSize(capNote(walked.visited)) + 1 : 0));
    if (shown === paths.length) return { files: paths, truncated: files.length > limit, ...stopped };
    return { files: paths.slice(0, shown), truncated: true, omitted: files.length - shown, ...stopped };
  }
}

/**
 * One path per line, then a line saying what was left out.
 * @example 'src/a.ts\nsrc/b.ts\n[2 of 9 matching paths shown; ...]'
 */
export function renderGlob(result: GlobResult): string {
  const lines = result.files.map(renderName);
  const narrow = 'narrow the pattern or search a subdirectory (path)';
  if (result.omitted)
    lines.push(`[${result.files.length} of ${result.files.length + result.omitted} matching paths shown, newest first; the rest did not fit: ${narrow}]`);
  else if (result.truncated) lines.push(`[the first ${result.files.length} matching paths (the limit), newest first; more matched: raise limit or ${narrow}]`);
  else if (lines.length === 0 && !result.stoppedAfter) lines.push('[no files match]');
  if (result.stoppedAfter) lines.push(capNote(result.stoppedAfter));
  return lines.join('\n');
}

function capNote(visited: number): string {
  return walkCapNote(visited, 'search a subdirectory, passing the fixed start of the pattern as path (path `src`, pattern `**/*.ts`)');
}
