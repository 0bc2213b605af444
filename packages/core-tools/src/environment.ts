import type { WorkspacePolicy } from './workspace/workspace-policy.js';

/** What the core tools are bound to: the workspace they are confined to, and their limits. */
export interface CoreToolsEnvironment {
  workspace: WorkspacePolicy;
  /** Largest text a read returns at once, in bytes (default 64 KiB). */
  maxReadBytes?: number;
}
