import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Never walked: git's internals and Toolwright's own state (audit logs). */
export const SKIPPED = new Set(['.git', '.toolwright']);

export interface WalkEntry {
  /** Path relative to the walk's start, `/`-separated. */
  relative: string;
  absolute: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
  depth: number;
}

export interface WalkOptions {
  /** 1 = direct children only. */
  maxDepth?: number;
  /** Extra gitignore-style patterns to skip. */
  exclude?: readonly string[];
  /** Honour `.gitignore` files found on the way (default true). `.git/` and `.toolwright/` are always skipped. */
  gitignore?: boolean;
  /** Stop after this many entries. */
  limit?: number;
}

/**
 * Walks a directory breadth-first without following symlinks (a link is reported, never entered),
 * honouring `.gitignore` files at every level with the `ignore` library (git's own matching rules).
 * Returns the entries and whether the limit cut the walk short.
 */
export function walk(start: string, options: WalkOptions = {}): { entries: WalkEntry[]; truncated: boolean } {
  const maxDepth = options.maxDepth ?? Infinity;
  const limit = options.limit ?? Infinity;
  const entries: WalkEntry[] = [];
  const extra = ignore().add([...(options.exclude ?? [])]);
  const queue: { dir: string; relative: string; depth: number; rules: { base: string; matcher: Ignore }[] }[] = [{ dir: start, relative: '', depth: 1, rules: [] }];
  while (queue.length > 0) {
    const { dir, relative, depth, rules } = queue.shift()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: skipped, as `find` would report and go on
    }
    let levelRules = rules;
    if (options.gitignore !== false && names.some((d) => d.name === '.gitignore' && d.isFile())) {
      try {
        levelRules = [...rules, { base: relative, matcher: ignore().add(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')) }];
      } catch {
        levelRules = rules;
      }
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of names) {
      if (SKIPPED.has(dirent.name)) continue;
      const childRelative = relative ? `${relative}/${dirent.name}` : dirent.name;
      const isDir = dirent.isDirectory();
      const test = isDir ? `${childRelative}/` : childRelative;
      if (extra.ignores(test) || levelRules.some((rule) => rule.matcher.ignores(rule.base ? test.slice(rule.base.length + 1) : test))) continue;
      const absolute = path.join(dir, dirent.name);
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(absolute);
      } catch {
        continue;
      }
      const kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
      entries.push({ relative: childRelative, absolute, kind, size: kind === 'file' ? stat.size : 0, mtimeMs: stat.mtimeMs, depth });
      if (entries.length >= limit) return { entries, truncated: true };
      if (kind === 'directory' && depth < maxDepth) queue.push({ dir: absolute, relative: childRelative, depth: depth + 1, rules: levelRules });
    }
  }
  return { entries, truncated: false };
}
