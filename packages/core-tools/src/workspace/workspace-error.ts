import { CoreToolError, type WorkspaceErrorCode } from '../core-tool-error.js';

export type { WorkspaceErrorCode } from '../core-tool-error.js';

/** Why a path (or command) was refused; `code` is stable, the message is written for the model. */
export class WorkspaceError extends CoreToolError {
  declare readonly code: WorkspaceErrorCode;

  constructor(
    code: WorkspaceErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(code, message);
    this.name = 'WorkspaceError';
  }
}
