export { WorkspacePolicy, isWithin, SCOPES } from './workspace/workspace-policy.js';
export type { Scope, WorkspaceConfig, ResolvedPath } from './workspace/workspace-policy.js';
export { WorkspaceError } from './workspace/workspace-error.js';
export type { WorkspaceErrorCode } from './workspace/workspace-error.js';
export { openForReading, writeFileAtomic } from './workspace/confined-file.js';
export type { CoreToolsEnvironment } from './environment.js';
export { FileReadTool } from './tools/file-read.js';
export type { FileReadResult } from './tools/file-read.js';
