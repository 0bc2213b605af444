import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { hiddenInTree, isRealDirectory, protectedPathsUnder } from '../workspace/tree-scan.js';
import type { PathConfinement } from './command-verdict.js';

/**
 * Confinement of shell arguments, relative to the shell's working directory `cwd` (default: the
 * root). Bash reads `/etc/passwd` as an absolute path (the file tools read it as workspace-relative),
 * so an absolute argument must lie inside the workspace root by path segments; every argument then
 * goes through the workspace policy, which refuses traversal and symlinks that lead outside. A
 * protected path (`.git/`, `.toolwright/`, `.env`) may not be named at all: the shell cannot tell a
 * read from a write (`cp notes/cfg .git/config`), and programs obey what is stored there. Nor may
 * a path a policy deny rule hides (`deniedPaths`), nor may a command read or copy a tree holding one.
 */
export function workspaceConfinement(workspace: WorkspacePolicy, cwd?: string): PathConfinement {
  const root = workspace.rootOf('private');
  const relativeOf = (value: string, base: string): { relative: string } | { refused: string } => {
    // Read the path as the kernel will: from the shell's working directory (or `/`), following each
    // symbolic link before the next `..` — `link/..` is the parent of the link's target, not the
    // directory holding the link, so a text-level normalisation would judge another file.
    const walked = walkPath(value, base);
    if (walked === undefined) return { refused: `'${value}' goes through too many symbolic links` };
    if (!isWithin(root, walked.at)) return { refused: `'${value}' is outside the workspace` };
    if (walked.unsure !== undefined)
      return {
        refused: `'${value}' goes through '${path.relative(root, walked.unsure) || '.'}', which does not exist yet, and then '..': where that leads depends on what the command line creates there first; write the path without '..'`,
      };
    return { relative: path.relative(root, walked.at) || '.' };
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
    locate: (value, base) => kernelPath(value, base) ?? path.resolve(base, value),
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
      if (!result.resolved.exists || !isRealDirectory(result.resolved.absolute)) return undefined;
      const hidden = hiddenInTree(workspace, result.resolved.absolute);
      if (hidden) return hidden;
      const found = protectedPathsUnder(workspace, result.resolved);
      if (found.paths.length > 0) return `it holds the protected path '${found.paths[0]}', which a copy would recreate`;
      return found.complete ? undefined : 'it is too large (or partly unreadable) to check for protected paths; copy smaller parts';
    },
    // Where the kernel will find the path, whether or not it exists: git's `HEAD:secrets/k` names no file on disk.
    checkHidden: (value, base) => {
      if (workspace.deniedPatterns.length === 0) return undefined;
      const located = kernelPath(value, base);
      if (located === undefined || !isWithin(root, located)) return undefined; // `check` refuses those
      const denied = workspace.deniedAt(located);
      if (denied) return `'${value}' is hidden by a policy deny rule (pattern '${denied.pattern}')`;
      return isRealDirectory(located) ? hiddenInTree(workspace, located) : undefined;
    },
  };
}

/** Most symbolic links followed while locating one argument (Linux's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Where `value`, read from the directory `base`, leads, as the kernel resolves it: segment by
 * segment, each existing symbolic link replaced by its target before the next segment (`..`
 * included) applies; a missing segment ends the walk (the rest is taken as written). Undefined
 * when the links loop.
 */
export function kernelPath(value: string, base: string): string | undefined {
  return walkPath(value, base)?.at;
}

/**
 * `kernelPath`, and `unsure`: the first name on the way that does not exist (the start directory
 * included) when a `..` comes after it. Where that `..` leads is not known before the line runs: an
 * earlier command may create the name as a symbolic link (`cp -s /ws/f sub/L; rm f; mkdir f` makes
 * `sub/L/../..` the workspace's parent).
 */
export function walkPath(value: string, base: string): { at: string; unsure?: string } | undefined {
  const pending = value.split('/').filter((s) => s !== '' && s !== '.');
  const start = value.startsWith('/') ? '/' : realOrUndefined(base);
  if (start === undefined && pending.includes('..')) return { at: path.resolve(base, ...pending), unsure: base };
  let current = start ?? path.resolve(base);
  let links = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(next, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (stat?.isSymbolicLink()) {
      if (++links > MAX_LINKS) return undefined;
      let target: string;
      try {
        target = fs.readlinkSync(next);
      } catch {
        return { at: path.join(next, ...pending), ...(pending.includes('..') ? { unsure: next } : {}) };
      }
      if (target.startsWith('/')) current = '/';
      pending.unshift(...target.split('/').filter((s) => s !== '' && s !== '.'));
      continue;
    }
    current = next;
    // Below a missing name nothing is a link yet: the rest applies as written.
    if (!stat) return { at: path.resolve(current, ...pending), ...(pending.includes('..') ? { unsure: current } : {}) };
  }
  return { at: current };
}

/** The real path of a directory, or undefined when it cannot be resolved. */
function realOrUndefined(dir: string): string | undefined {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return undefined;
  }
}

function protectedMessage(value: string): string {
  return `'${value}' is a protected path (such as .git/, .toolwright/ or .env); shell commands may not name it — use the file tools, which ask for approval`;
}
