import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { deleteConfined } from '../workspace/confined-delete.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { hiddenInTree, isRealDirectory } from '../workspace/tree-scan.js';
import { renderName } from '../model-text/render-name.js';
import { useAsJudged } from '../as-judged.js';

export interface FileDeleteResult {
  path: string;
  kind: 'file' | 'directory' | 'symlink';
}

/** Deletes files and directories inside the workspace. */
export class FileDeleteTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Deletes a file, a symbolic link (the link itself; its target is untouched) or, with
   * `recursive: true`, a directory and everything in it. A non-empty directory without `recursive` is
   * refused, as is a tree holding a path a policy rule hides, and the workspace root can never be
   * deleted. Deletions cannot be undone.
   * @param path File, link or directory to delete, relative to the workspace root.
   * @param recursive Required to delete a directory that is not empty.
   */
  @renderedAs(renderFileDelete)
  @tool({ tier: 'side-effecting', group: 'edit', sideEffects: ['fs-write'], capabilities: ['fs.write'], determinism: 'deterministic', timeout: '30s' })
  async fileDelete(path: string, recursive: boolean = false): Promise<FileDeleteResult> {
    return withWorkspaceErrors(path, async () => {
      // Resolve the parent, not the target: a symlink is removed itself, never followed to its target.
      const resolved = useAsJudged(this.env.workspace.resolveLink(path), 'path', path);
      if (resolved.relative === '') throw new WorkspaceError('workspace_root', 'The workspace root cannot be deleted.', path);
      const hidden = recursive && isRealDirectory(resolved.absolute) ? hiddenInTree(this.env.workspace, resolved.absolute) : undefined;
      if (hidden) throw new WorkspaceError('path_denied', `'${path}' cannot be deleted: ${hidden}.`, path);
      const kind = await deleteConfined(resolved, recursive, getToolContext()?.signal);
      this.env.readHashes?.delete(resolved.absolute);
      return { path: resolved.relative, kind };
    });
  }
}

/** @example 'Deleted the file notes.md.' */
export function renderFileDelete(deletion: FileDeleteResult): string {
  if (deletion.kind === 'symlink') return `Deleted the symbolic link ${renderName(deletion.path)} (its target is untouched).`;
  return `Deleted the ${deletion.kind} ${renderName(deletion.path)}.`;
}
