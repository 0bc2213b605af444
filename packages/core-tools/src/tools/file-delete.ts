import fs from 'node:fs';
import { tool } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { WorkspaceError } from '../workspace/workspace-error.js';

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
   * refused, and the workspace root can never be deleted. Deletions cannot be undone.
   * @param path File, link or directory to delete, relative to the workspace root.
   * @param recursive Required to delete a directory that is not empty.
   */
  @tool({ tier: 'side-effecting', group: 'edit', sideEffects: ['fs-write'], capabilities: ['fs.write'], determinism: 'deterministic', timeout: '30s' })
  async fileDelete(path: string, recursive: boolean = false): Promise<FileDeleteResult> {
    const { workspace } = this.env;
    // Resolve the parent, not the target: a symlink is removed itself, never followed to its target.
    const resolved = workspace.resolveLink(path);
    if (resolved.relative === '') throw new WorkspaceError('workspace_root', 'The workspace root cannot be deleted.', path);
    const stat = fs.lstatSync(resolved.absolute, { throwIfNoEntry: false });
    if (!stat) throw new WorkspaceError('not_found', `'${path}' does not exist.`, path);
    if (stat.isSymbolicLink() || stat.isFile()) {
      fs.unlinkSync(resolved.absolute);
      this.env.readHashes?.delete(resolved.absolute);
      return { path: resolved.relative, kind: stat.isSymbolicLink() ? 'symlink' : 'file' };
    }
    if (!stat.isDirectory()) throw new WorkspaceError('special_file', `'${path}' is not a file, link or directory; it is refused.`, path);
    if (!recursive && fs.readdirSync(resolved.absolute).length > 0) {
      throw new Error(`'${path}' is a directory that is not empty; call file_delete again with recursive: true to delete it and its contents.`);
    }
    fs.rmSync(resolved.absolute, { recursive: true, force: false });
    return { path: resolved.relative, kind: 'directory' };
  }
}
