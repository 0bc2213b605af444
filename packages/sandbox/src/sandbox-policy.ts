import type { ResourceLimits } from './resource-limits.js';

/**
 * What one sandboxed command may see and do. Paths are absolute and canonical (symbolic links
 * resolved), as the kernel will meet them; the workspace is mounted at its own path, so paths inside
 * and outside the sandbox agree.
 */
export interface SandboxPolicy {
  /** The only writable place (besides a private, empty `/tmp`). */
  workspace: string;
  /** Existing paths inside the workspace mounted read-only (protected paths such as `.git`). */
  readOnly: readonly string[];
  /** Existing paths inside the workspace whose content is hidden (paths a policy denies). */
  hidden: readonly string[];
  /** Directories outside the workspace and the system's directories that programs may read (e.g. `/opt/node`). */
  readable: readonly string[];
  /** Whether the command may use the network (default: no network namespace but loopback). */
  network: boolean;
  /** The home directory inside the sandbox: created empty on the private `/tmp`. */
  home: string;
  /** Where the command starts (inside the workspace). */
  cwd: string;
  limits: ResourceLimits;
}
