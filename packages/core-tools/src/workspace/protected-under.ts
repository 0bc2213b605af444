import fs from 'node:fs';
import path from 'node:path';

/** Entries looked at before a tree counts as too large to check (then it is reported whole). */
export const MAX_TREE_ENTRIES = 20_000;
/** Protected paths listed at most; the walk stops at the first this many. */
const MAX_REPORTED = 16;

/** What `protectedPathsUnder` found: the protected paths, and whether the whole tree was seen. */
export interface ProtectedUnder {
  paths: string[];
  /** False when the tree was too large (or partly unreadable) to look at whole. */
  complete: boolean;
}

/**
 * The protected paths inside the directory `absolute` (workspace-relative `relative`), for tools that
 * act on a whole tree (a recursive delete): each protected entry is reported, not entered. Links are
 * never followed (a recursive delete removes a link, never its target). Bounded by `limit` entries; an
 * unreadable directory also makes the answer incomplete, which callers must treat as "may hold one".
 * @example protectedPathsUnder('/ws/sub', 'sub', isProtected) // { paths: ['sub/.git'], complete: true }
 */
export function protectedPathsUnder(absolute: string, relative: string, isProtected: (relative: string) => boolean, limit = MAX_TREE_ENTRIES): ProtectedUnder {
  const paths: string[] = [];
  const stack: { absolute: string; relative: string }[] = [{ absolute, relative }];
  let seen = 0;
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir.absolute, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // gone: nothing to delete there
      return { paths, complete: false };
    }
    for (const entry of entries) {
      if (++seen > limit) return { paths, complete: false };
      const childRelative = dir.relative === '' ? entry.name : `${dir.relative}/${entry.name}`;
      if (isProtected(childRelative)) {
        paths.push(childRelative);
        if (paths.length >= MAX_REPORTED) return { paths, complete: true };
        continue;
      }
      if (entry.isDirectory()) stack.push({ absolute: path.join(dir.absolute, entry.name), relative: childRelative });
    }
  }
  return { paths, complete: true };
}

/**
 * Every path inside the directory `absolute` (workspace-relative `relative`), without following links,
 * for policy rules over a tool that acts on the whole tree: `file_delete(sub/keep.txt)` is a delete of
 * `sub` too. Bounded by `limit` entries (`complete` false beyond it, or where a directory is unreadable).
 */
export function pathsUnder(absolute: string, relative: string, limit = MAX_TREE_ENTRIES): { paths: string[]; complete: boolean } {
  const paths: string[] = [];
  const stack: { absolute: string; relative: string }[] = [{ absolute, relative }];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir.absolute, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { paths, complete: false };
    }
    for (const entry of entries) {
      if (paths.length >= limit) return { paths, complete: false };
      const childRelative = dir.relative === '' ? entry.name : `${dir.relative}/${entry.name}`;
      paths.push(childRelative);
      if (entry.isDirectory()) stack.push({ absolute: path.join(dir.absolute, entry.name), relative: childRelative });
    }
  }
  return { paths, complete: true };
}

/** Whether `absolute` is a directory itself, not a link to one (a delete removes a link, never enters it). */
export function isRealDirectory(absolute: string): boolean {
  try {
    return fs.lstatSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // unreadable: the delete fails the same way
  }
}
