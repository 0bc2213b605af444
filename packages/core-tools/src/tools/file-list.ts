import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { linesWithin, modelSize, outputBudget } from '../model-text/output-budget.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { renderName } from '../model-text/render-name.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { walkWorkspaceAsync } from '../workspace/tree-scan.js';
import type { WalkEntry } from '../workspace/walk.js';
import { walkCap, walkCapNote } from '../workspace/walk-cap.js';
import { useAsJudged } from '../as-judged.js';

/** One entry of a listing. */
export interface ListedEntry {
  /** Path relative to the listed directory (`/`-separated). */
  path: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Size in bytes (files only; 0 otherwise). */
  size: number;
}

export interface FileListResult {
  entries: ListedEntry[];
  /** True when the cap stopped the listing early. */
  truncated: boolean;
  /** Entries found but left out so the listing fits the call's output budget. */
  omitted?: Integer;
  /** Set when the walk stopped at its cap after looking at this many entries (those excluded included). */
  stoppedAfter?: Integer;
}

/** Room kept for the line that says what was left out. */
const FOOTER_ROOM = 200;

/** Lists directories inside the workspace. */
export class FileListTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Lists the entries of a workspace directory with their kind and size, sorted by path. By default only
   * the directory's direct children (depth 1); raise `depth` to descend. Files ignored by `.gitignore`
   * and the `.git` and `.toolwright` folders are left out, as are paths a policy rule hides and
   * entries matching `exclude` (gitignore-style patterns such as `node_modules/` or `*.log`). At most
   * `limit` entries (default 500), and no more than fits the call's output budget; the last line says
   * when more exist. Symbolic links are listed as `symlink` and never followed.
   * @param path Directory to list (default: the workspace root).
   * @param depth How many levels to descend (1 = direct children).
   * @param exclude Extra gitignore-style patterns to leave out.
   * @param limit Maximum number of entries.
   */
  @renderedAs(renderFileList)
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '15s' })
  async fileList(
    path: string = '.',
    /** @minimum 1 @maximum 20 */ depth: Integer = 1,
    exclude: string[] = [],
    /** @minimum 1 @maximum 5000 */ limit: Integer = 500,
  ): Promise<FileListResult> {
    return withWorkspaceErrors(path, async () => {
      const resolved = useAsJudged(this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' }), 'path', path);
      const entries: WalkEntry[] = [];
      let truncated = false;
      const options = { maxDepth: depth, exclude, maxVisited: walkCap(this.env), signal: getToolContext()?.signal };
      const walked = await walkWorkspaceAsync(this.env.workspace, resolved.absolute, options, (entry) => {
        entries.push(entry);
        truncated = entries.length >= limit;
        return truncated ? 'stop' : undefined;
      });
      const stopped = walked.capped ? { stoppedAfter: walked.visited } : {};
      const listed = entries
        .map((e): ListedEntry => ({ path: e.kind === 'directory' ? `${e.relative}/` : e.relative, kind: e.kind, size: e.size }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const room = outputBudget() - FOOTER_ROOM - (walked.capped ? modelSize(capNote(walked.visited)) + 1 : 0);
      const shown = linesWithin(listed.map(entryLine), room);
      if (shown === listed.length) return { entries: listed, truncated, ...stopped };
      return { entries: listed.slice(0, shown), truncated, omitted: listed.length - shown, ...stopped };
    });
  }
}

/** `src/` for a directory, `src/index.ts  (1234 bytes)` for a file, a word in brackets for the rest. */
function entryLine(entry: ListedEntry): string {
  const path = renderName(entry.path);
  switch (entry.kind) {
    case 'directory':
      return path;
    case 'file':
      return `${path}  (${entry.size} bytes)`;
    case 'symlink':
      return `${path}  (symbolic link)`;
    default:
      return `${path}  (special file)`;
  }
}

/**
 * One line per entry, then a line saying what was left out and how to see it.
 * @example 'src/\nsrc/index.ts  (1234 bytes)\n[2 of 5 entries shown; 3 more did not fit: ...]'
 */
export function renderFileList(listing: FileListResult): string {
  const lines = listing.entries.map(entryLine);
  const narrow = 'list a subdirectory (path) or leave entries out with exclude';
  if (listing.omitted) {
    const found = listing.entries.length + listing.omitted;
    lines.push(`[${listing.entries.length} of ${found}${listing.truncated ? '+' : ''} entries shown; the rest did not fit: ${narrow}]`);
  } else if (listing.truncated) {
    lines.push(`[the listing stopped at ${listing.entries.length} entries (the limit); more exist: raise limit, ${narrow}]`);
  } else if (lines.length === 0 && !listing.stoppedAfter) {
    lines.push('[no entries: the directory is empty, or everything in it is ignored or excluded]');
  }
  if (listing.stoppedAfter) lines.push(capNote(listing.stoppedAfter));
  return lines.join('\n');
}

function capNote(visited: number): string {
  return walkCapNote(visited, 'list a subdirectory (path), or fewer levels (depth)');
}
