/** Why a path (or command) was refused; `code` is stable, the message is written for the model. */
export type WorkspaceErrorCode =
  | 'invalid_path' | 'outside_workspace' | 'symlink_escape' | 'special_file' | 'protected_path'
  | 'not_found' | 'not_a_file' | 'not_a_directory' | 'unknown_scope' | 'workspace_root' | 'changed_during_use'
  | 'already_exists' | 'not_empty' | 'binary_file' | 'too_large' | 'invalid_content' | 'permission_denied' | 'io_error';

export class WorkspaceError extends Error {
  constructor(readonly code: WorkspaceErrorCode, message: string, readonly path?: string) {
    super(message);
    this.name = 'WorkspaceError';
  }
}
