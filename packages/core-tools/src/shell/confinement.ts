import path from 'node:path';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import type { PathConfinement } from './command-analysis.js';

/**
 * Confinement of shell arguments. Bash reads `/etc/passwd` as an absolute path (the file tools read
 * it as workspace-relative), so an absolute argument must lie inside the workspace root by path
 * segments; every argument then goes through the workspace policy, which refuses traversal and
 * symlinks that lead outside.
 */
export function workspaceConfinement(workspace: WorkspacePolicy): PathConfinement {
  const root = workspace.rootOf('private');
  return {
    root,
    check: (value) => {
      if (value === '/dev/null') return undefined;
      let relative = value;
      if (value.startsWith('/')) {
        const absolute = path.resolve(value);
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
