import path from 'node:path';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import type { PathConfinement } from './command-analysis.js';

/**
 * Confinement of shell arguments, relative to the shell's working directory `cwd` (default: the root). Bash reads `/etc/passwd` as an absolute path (the file tools read
 * it as workspace-relative), so an absolute argument must lie inside the workspace root by path
 * segments; every argument then goes through the workspace policy, which refuses traversal and
 * symlinks that lead outside.
 */
export function workspaceConfinement(workspace: WorkspacePolicy, cwd?: string): PathConfinement {
  const root = workspace.rootOf('private');
  return {
    root,
    ...(cwd !== undefined ? { cwd } : {}),
    check: (value, base) => {
      if (value === '/dev/null') return undefined;
      // Relative arguments are read from the shell's working directory (the root, unless a session
      // shell has moved); absolute ones as they are.
      let relative = value;
      if (value.startsWith('/') || base !== root) {
        const absolute = path.resolve(base, value);
        if (!isWithin(root, absolute)) return `'${value}' is outside the workspace`;
        relative = path.relative(root, absolute) || '.';
      }
      try {
        workspace.resolve(relative);
        return undefined;
      } catch (error) {
        if (error instanceof WorkspaceError) return error.message;
        throw error;
      }
    },
  };
}
