import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import type { PathConfinement } from './command-analysis.js';

/** Entries a recursive copy may walk before it is refused as too large to check. */
const MAX_TREE_ENTRIES = 20_000;

/**
 * Confinement of shell arguments, relative to the shell's working directory `cwd` (default: the
 * root). Bash reads `/etc/passwd` as an absolute path (the file tools read it as workspace-relative),
 * so an absolute argument must lie inside the workspace root by path segments; every argument then
 * goes through the workspace policy, which refuses traversal and symlinks that lead outside. A
 * protected path (`.git/`, `.toolwright/`, `.env`) may not be named at all: the shell cannot tell a
 * read from a write (`cp notes/cfg .git/config`), and programs obey what is stored there.
 */
export function workspaceConfinement(workspace: WorkspacePolicy, cwd?: string): PathConfinement {
  const root = workspace.rootOf('private');
  const relativeOf = (value: string, base: string): { relative: string } | { refused: string } => {
    // Relative arguments are read from the shell's working directory (the root, unless a session
    // shell has moved); absolute ones as they are.
    if (!value.startsWith('/') && base === root) return { relative: value };
    const absolute = path.resolve(base, value);
    if (!isWithin(root, absolute)) return { refused: `'${value}' is outside the workspace` };
    return { relative: path.relative(root, absolute) || '.' };
  };
  const resolve = (value: string, base: string) => {
    const where = relativeOf(value, base);
    if ('refused' in where) return where;
    try {
      return { resolved: workspace.resolve(where.relative) };
    } catch (error) {
      if (error instanceof WorkspaceError) return { refused: error.message };
      return { refused: `'${value}' could not be checked (${(error as Error).message})` };
    }
  };
  return {
    root,
    ...(cwd !== undefined ? { cwd } : {}),
    check: (value, base) => {
      if (value === '/dev/null') return undefined;
      const result = resolve(value, base);
      if ('refused' in result) return result.refused;
      if (result.resolved.protected) return protectedMessage(value);
      return undefined;
    },
    checkTree: (value, base) => {
      const result = resolve(value, base);
      if ('refused' in result) return result.refused;
      if (!result.resolved.exists) return undefined;
      let seen = 0;
      const stack = [result.resolved.absolute];
      while (stack.length > 0) {
        const dir = stack.pop()!;
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
          continue;
        }
        for (const entry of entries) {
          if (++seen > MAX_TREE_ENTRIES) return `it holds more than ${MAX_TREE_ENTRIES} entries, too many to check; copy smaller parts`;
          const absolute = path.join(dir, entry.name);
          const relative = path.relative(root, absolute).split(path.sep).join('/');
          let holds = false;
          try {
            holds = workspace.resolveLink(relative).protected;
          } catch {
            holds = false;
          }
          if (holds) return `it holds the protected path '${relative}', which a copy would recreate`;
          if (entry.isDirectory()) stack.push(absolute);
        }
      }
      return undefined;
    },
  };
}

function protectedMessage(value: string): string {
  return `'${value}' is a protected path (such as .git/, .toolwright/ or .env); shell commands may not name it — use the file tools, which ask for approval`;
}
