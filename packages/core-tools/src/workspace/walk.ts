import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { at, hasDescriptorPaths, openDirectory } from './directory-descriptor.js';

/** Never walked: git's internals and Toolwright's own state (audit logs). */
export const SKIPPED = new Set(['.git', '.toolwright']);

/** Largest `.gitignore` honoured; a bigger one is skipped rather than read whole. */
const MAX_GITIGNORE_BYTES = 1 << 20;
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

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

/** One directory being read: its entries' types and metadata, looked up inside that very directory. */
interface OpenedDirectory {
  names: fs.Dirent[];
  lstat(name: string): fs.Stats | undefined;
  readGitignore(): string | undefined;
  close(): void;
}

/**
 * Walks a directory breadth-first without following symlinks (a link is reported, never entered),
 * honouring `.gitignore` files at every level with the `ignore` library (git's own matching rules).
 * Each directory is opened without following links and checked to be where the walk expects it, so
 * one swapped for a link to elsewhere during the walk is skipped, never listed.
 * Returns the entries and whether the limit cut the walk short.
 */
export function walk(start: string, options: WalkOptions = {}): { entries: WalkEntry[]; truncated: boolean } {
  const maxDepth = options.maxDepth ?? Infinity;
  const limit = options.limit ?? Infinity;
  const entries: WalkEntry[] = [];
  const extra = ignore().add([...(options.exclude ?? [])]);
  let realStart: string;
  try {
    realStart = fs.realpathSync.native(start);
  } catch {
    return { entries, truncated: false };
  }
  const queue: { relative: string; depth: number; rules: { base: string; matcher: Ignore }[] }[] = [{ relative: '', depth: 1, rules: [] }];
  while (queue.length > 0) {
    const { relative, depth, rules } = queue.shift()!;
    const opened = openForListing(path.join(realStart, relative));
    if (!opened) continue; // unreadable, gone or swapped: skipped, as `find` would report and go on
    try {
      let levelRules = rules;
      if (options.gitignore !== false && opened.names.some((d) => d.name === '.gitignore' && d.isFile())) {
        const text = opened.readGitignore();
        if (text !== undefined) levelRules = [...rules, { base: relative, matcher: ignore().add(text) }];
      }
      opened.names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of opened.names) {
        if (SKIPPED.has(dirent.name)) continue;
        const childRelative = relative ? `${relative}/${dirent.name}` : dirent.name;
        const test = dirent.isDirectory() ? `${childRelative}/` : childRelative;
        if (extra.ignores(test) || levelRules.some((rule) => rule.matcher.ignores(rule.base ? test.slice(rule.base.length + 1) : test))) continue;
        const stat = opened.lstat(dirent.name);
        if (!stat) continue;
        const kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
        entries.push({
          relative: childRelative,
          absolute: path.join(start, childRelative),
          kind,
          size: kind === 'file' ? stat.size : 0,
          mtimeMs: stat.mtimeMs,
          depth,
        });
        if (entries.length >= limit) return { entries, truncated: true };
        if (kind === 'directory' && depth < maxDepth) queue.push({ relative: childRelative, depth: depth + 1, rules: levelRules });
      }
    } finally {
      opened.close();
    }
  }
  return { entries, truncated: false };
}

/** Opens a directory for listing, or undefined when it cannot be read or is no longer where expected. */
function openForListing(dir: string): OpenedDirectory | undefined {
  try {
    if (!hasDescriptorPaths) return openByPath(dir);
    const fd = openDirectory(dir, dir, dir);
    if (fd === undefined) return undefined;
    try {
      return {
        names: fs.readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true }),
        lstat: (name) => lstatOrUndefined(at(fd, name)),
        readGitignore: () => readSmallFile(at(fd, '.gitignore')),
        close: () => fs.closeSync(fd),
      };
    } catch {
      fs.closeSync(fd);
      return undefined;
    }
  } catch {
    return undefined;
  }
}

/** Where `/proc/self/fd` is missing: by path, checked to be canonical before it is read. */
function openByPath(dir: string): OpenedDirectory | undefined {
  if (fs.realpathSync.native(dir) !== dir) return undefined;
  return {
    names: fs.readdirSync(dir, { withFileTypes: true }),
    lstat: (name) => lstatOrUndefined(path.join(dir, name)),
    readGitignore: () => readSmallFile(path.join(dir, '.gitignore')),
    close: () => {},
  };
}

function lstatOrUndefined(pathname: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(pathname);
  } catch {
    return undefined;
  }
}

/** A regular file's text (never through a link), or undefined if it is anything else or too large. */
function readSmallFile(pathname: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(pathname, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_GITIGNORE_BYTES) return undefined;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
