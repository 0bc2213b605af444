import fs from 'node:fs';
import path from 'node:path';
import { walk, walkAsync, type WalkEntry, type WalkOptions, type WalkProgress, type WalkResult } from './walk.js';
import { WorkspaceError } from './workspace-error.js';
import type { ResolvedPath, WorkspacePolicy } from './workspace-policy.js';

/** Entries looked at before a tree counts as too large to check (then it is reported whole). */
export const MAX_TREE_ENTRIES = 20_000;
/** Protected paths listed at most. */
const MAX_REPORTED = 16;

/** What a scan of a whole tree found, and whether it saw the whole tree (false: too large, or partly unreadable). */
export interface TreeFindings<T = string> {
  paths: T[];
  complete: boolean;
}

/**
 * `walk` bound to a workspace directory (canonical, as `resolve` returns it): what the workspace's
 * `deniedPaths` hide is neither listed nor entered (and is named in `hidden`), on top of the walk's
 * own rules. Every listing, glob, search and hidden-path scan of the core tools walks through here,
 * so a deny rule is honoured in this one place.
 */
export function walkWorkspace(workspace: WorkspacePolicy, dir: string, options: WalkOptions = {}): WalkResult {
  return walk(dir, { ...options, startIsReal: true, judge: hidingJudge(workspace, dir, options.judge) });
}

/** `walkAsync` bound to a workspace directory, hiding what `walkWorkspace` hides (for trees a model sizes). */
export function walkWorkspaceAsync(
  workspace: WorkspacePolicy,
  dir: string,
  options: WalkOptions & { signal?: AbortSignal | undefined },
  visit: (entry: WalkEntry) => void | 'stop' | Promise<void | 'stop'>,
): Promise<WalkProgress> {
  return walkAsync(dir, { ...options, startIsReal: true, judge: hidingJudge(workspace, dir, options.judge) }, visit);
}

function hidingJudge(workspace: WorkspacePolicy, dir: string, judge: WalkOptions['judge']): WalkOptions['judge'] {
  const hides = workspace.hidingUnder(dir);
  if (!hides) return judge;
  return (relative, kind) => (hides(relative) ? 'hide' : judge?.(relative, kind));
}

/**
 * The directory a tool acts on as a whole (a recursive delete, a tree a copy reads): `value` resolved
 * as named, hidden paths included (so policy rules can name them), and only when it is a directory
 * itself — a link is removed, never entered. Undefined when the workspace refuses it or it is no tree.
 */
export function treeAt(workspace: WorkspacePolicy, value: string): ResolvedPath | undefined {
  let tree: ResolvedPath;
  try {
    tree = workspace.resolveLink(value, { allowDenied: true });
  } catch (error) {
    if (error instanceof WorkspaceError) return undefined;
    throw error;
  }
  return isRealDirectory(tree.absolute) ? tree : undefined;
}

/**
 * The protected paths inside `tree`, each reported and not entered (a recursive delete removes
 * `sub/.git` whole), scope-relative, the first 16. Bounded by `limit` entries; an unreadable part
 * makes the answer incomplete, which callers treat as "may hold one".
 * @example protectedPathsUnder(workspace, sub) // { paths: ['sub/.git'], complete: true }
 */
export function protectedPathsUnder(workspace: WorkspacePolicy, tree: ResolvedPath, limit = MAX_TREE_ENTRIES): TreeFindings {
  const inTree = (relative: string) => `${tree.relative === '' ? '' : `${tree.relative}/`}${relative}`;
  const found = walk(tree.absolute, { ...WHOLE_TREE, limit, judge: (relative) => (workspace.protects(inTree(relative)) ? 'leaf' : undefined) });
  const paths = found.entries.map((entry) => inTree(entry.relative)).filter((relative) => workspace.protects(relative));
  return { paths: paths.slice(0, MAX_REPORTED), complete: !found.truncated && !found.unreadable };
}

/**
 * Every path inside `tree`, scope-relative, for policy rules over a tool that acts on the whole tree:
 * `file_delete(sub/keep.txt)` is a delete of `sub` too. Hidden paths are included: a rule may name them.
 */
export function pathsUnder(tree: ResolvedPath, limit = MAX_TREE_ENTRIES): TreeFindings {
  const found = walk(tree.absolute, { ...WHOLE_TREE, limit });
  const prefix = tree.relative === '' ? '' : `${tree.relative}/`;
  return { paths: found.entries.map((entry) => `${prefix}${entry.relative}`), complete: !found.truncated && !found.unreadable };
}

/**
 * The hidden paths at or inside the directory at canonical `absolute` (relative to the private root, with
 * the pattern that hides each), for tools that read, copy or delete a whole tree. Only directories
 * where a pattern may match are entered (`secrets/**` sends the scan into `secrets` alone), bounded
 * by `limit` entries; incomplete when that was not enough or a part was unreadable.
 */
export function hiddenPathsUnder(
  workspace: WorkspacePolicy,
  absolute: string,
  limit = MAX_TREE_ENTRIES,
  onDirectory?: WalkOptions['onDirectory'],
): TreeFindings<{ path: string; pattern: string }> {
  const itself = workspace.deniedAt(absolute);
  if (itself) return { paths: [{ path: itself.relative, pattern: itself.pattern }], complete: true };
  const hides = workspace.hidingUnder(absolute);
  if (!hides || !workspace.mayHideBelow(absolute)) return { paths: [], complete: true };
  const paths: { path: string; pattern: string }[] = [];
  const found = walk(absolute, {
    ...WHOLE_TREE,
    limit,
    metadata: false,
    ...(onDirectory ? { onDirectory } : {}),
    judge: (relative, kind) => {
      // Every hidden path is collected here (the walk's own `hidden` names only the first few).
      if (hides(relative) !== undefined) {
        const denied = workspace.deniedAt(path.join(absolute, relative));
        if (denied) paths.push({ path: denied.relative, pattern: denied.pattern });
        return 'hide';
      }
      return kind === 'directory' && !workspace.mayHideBelow(path.join(absolute, relative)) ? 'leaf' : undefined;
    },
  });
  return { paths, complete: !found.truncated && !found.unreadable };
}

/**
 * Why a tool may not read, copy or delete the tree at canonical `absolute` as a whole: it is or holds
 * a hidden path (named with the pattern that hides it), or it is too large to check — or undefined.
 * @example hiddenInTree(workspace, root) // "it holds 'secrets', which the deny rule pattern 'secrets/**' hides"
 */
export function hiddenInTree(workspace: WorkspacePolicy, absolute: string, limit = MAX_TREE_ENTRIES): string | undefined {
  const found = hiddenPathsUnder(workspace, absolute, limit);
  const [first] = found.paths;
  if (first) return `it holds '${first.path}', which the deny rule pattern '${first.pattern}' hides`;
  if (!found.complete)
    return `it is too large (more than ${limit} entries) or partly unreadable, so it cannot be checked for paths a deny rule hides; name a smaller directory`;
  return undefined;
}

/** A whole tree as a tool acting on it meets it: `.git` and ignored files included. */
const WHOLE_TREE: WalkOptions = { gitignore: false, skipInternal: false, startIsReal: true };

/** Whether `absolute` is a directory itself, not a link to one (a delete removes a link, never enters it). */
export function isRealDirectory(absolute: string): boolean {
  try {
    return fs.lstatSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // unreadable: the delete fails the same way
  }
}
