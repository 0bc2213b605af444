import type { WorkspacePolicy } from './workspace/workspace-policy.js';
import type { ShellConfig } from './shell/shell-config.js';
import type { WebConfig } from './web/web-config.js';

/** What the core tools are bound to: the workspace they are confined to, and their limits. */
export interface CoreToolsEnvironment {
  workspace: WorkspacePolicy;
  /** Largest text a read returns at once, in bytes (default 64 KiB); the call's output budget, when smaller, wins. */
  maxReadBytes?: number;
  /**
   * sha-256 of each file's content when `file_read` last returned it, by absolute path: `file_edit`
   * refuses to edit a file that changed since the model read it. Shared by the tools of one session.
   */
  readHashes?: Map<string, string>;
  /** How `shell_exec` runs commands (default: the host backend with the default allowlist). */
  shell?: ShellConfig;
  /** Limits, internal-address exceptions and the search provider of the web tools. */
  web?: WebConfig;
  /** The ripgrep binary file_search runs inside the kernel sandbox (default: `rg` in the system's program folders); `false` forces the built-in engine. */
  ripgrep?: string | false;
  /** Entries one walk of `glob`, `file_list` or the built-in `file_search` looks at before it stops and says so (default 200,000). */
  maxWalkEntries?: number;
  /** The read-only vault `vault_copyto` copies from. */
  vault?: { root: string };
}
