import { tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { walk } from '../workspace/walk.js';

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
}

/** Lists directories inside the workspace. */
export class FileListTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Lists the entries of a workspace directory with their kind and size, sorted by path. By default only
   * the directory's direct children (depth 1); raise `depth` to descend. Files ignored by `.gitignore`
   * and the `.git` and `.toolwright` folders are left out, as are entries matching `exclude` (gitignore-style patterns such
   * as `node_modules/` or `*.log`). At most `limit` entries (default 500); `truncated` says when more exist.
   * Symbolic links are listed as `symlink` and never followed.
   * @param path Directory to list (default: the workspace root).
   * @param depth How many levels to descend (1 = direct children).
   * @param exclude Extra gitignore-style patterns to leave out.
   * @param limit Maximum number of entries.
   */
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '15s' })
  async fileList(path: string = '.', /** @minimum 1 @maximum 20 */ depth: Integer = 1, exclude: string[] = [], /** @minimum 1 @maximum 5000 */ limit: Integer = 500): Promise<FileListResult> {
    return withWorkspaceErrors(path, () => {
      const resolved = this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' });
      const { entries, truncated } = walk(resolved.absolute, { maxDepth: depth, exclude, limit });
      return {
        entries: entries.map((e) => ({ path: e.kind === 'directory' ? `${e.relative}/` : e.relative, kind: e.kind, size: e.size }))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        truncated,
      };
    });
  }
}
