import os from 'node:os';
import path from 'node:path';
import { isWithin } from './is-within.js';
import type { ResourceLimits } from './resource-limits.js';
import type { DirectoryIdentity } from './workspace-identity.js';

/**
 * What one sandboxed command may see and do. Paths are absolute and canonical (symbolic links
 * resolved), as the kernel will meet them; the workspace is mounted at its own path, so paths inside
 * and outside the sandbox agree.
 */
export interface SandboxPolicy {
  /** The only writable place (besides a private, empty `/tmp`). */
  workspace: string;
  /**
   * The directory the workspace was when the tools were set up: a command is refused when another has
   * taken its place (a link to elsewhere, moved in by a command whose own workspace holds this one).
   */
  workspaceIdentity?: DirectoryIdentity;
  /** Other absolute spellings of the workspace (through links): inside, each is a link to it, so such paths work there too. */
  workspaceSpellings?: readonly string[];
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
  /**
   * A reader's view (file_search's ripgrep): the workspace read-only and nothing else made for a
   * command — no `/dev` (no endless `/dev/zero`), no `/proc` (no `/proc/self/fd/1`, the program's own
   * output to wait on), no folders bound from the host on the way to covered paths. What a link in the
   * workspace names can then lead only to the system's files, the sandbox's `/etc` or the workspace.
   */
  reader?: boolean;
  /**
   * The workspace read-only as a whole, the rest of the sandbox as a command's (`/dev`, `/proc`): a program that may
   * read the workspace but not change it (a read-only subprocess tool). `reader` implies it.
   */
  workspaceReadOnly?: boolean;
}

/**
 * Places the sandbox makes itself (its `/etc`, `/proc`, `/dev`, `/sys` and private `/tmp`) or keeps
 * out of sight (homes): a readable directory may not be, hold, or lie inside one of them — it
 * would show the host's (its `/etc/shadow`, its processes' roots) or cover the sandbox's own. Inside
 * `/tmp` is allowed: mounted over the private `/tmp`, such a directory (a toolchain unpacked there) shows only itself.
 */
const SANDBOX_MADE = ['/etc', '/proc', '/dev', '/sys', '/run'];
const HELD_ONLY = ['/tmp', '/var/tmp'];

/**
 * Why a directory may not be made readable in the sandbox, or undefined: it must be absolute and
 * canonical, and neither `/`, a home, the workspace (or hold it), nor one of the sandbox's own
 * places (see `SANDBOX_MADE`).
 * @example readableProblem('/etc/ssl', '/ws') // "it lies in /etc, which the sandbox makes itself"
 */
export function readableProblem(dir: string, workspace: string | undefined): string | undefined {
  if (!path.isAbsolute(dir)) return 'it is not an absolute path';
  if (path.resolve(dir) === '/') return 'it is the root directory (every file would be visible)';
  const homes = [os.homedir(), '/root', '/home'].filter((home) => home !== '' && home !== '/');
  for (const home of homes) if (isWithin(dir, home) || isWithin(home, dir)) return `it is, holds or lies in the home directory ${home}`;
  if (workspace !== undefined && (isWithin(dir, workspace) || isWithin(workspace, dir))) return 'it is, holds or lies in the workspace';
  for (const place of SANDBOX_MADE) {
    if (isWithin(dir, place)) return `it holds ${place}, which the sandbox makes itself`;
    if (isWithin(place, dir)) return `it lies in ${place}, which the sandbox makes itself`;
  }
  for (const place of HELD_ONLY) if (isWithin(dir, place)) return `it holds ${place}, which the sandbox makes itself`;
  return undefined;
}
