import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { at, hasDescriptorPaths, openDirectory } from './directory-descriptor.js';
import { readPlainFile } from './plain-file.js';
import { TimeSlices } from './time-slices.js';

/** Never walked unless `skipInternal` is false: git's internals and Toolwright's own state (audit logs). */
export const SKIPPED = new Set(['.git', '.toolwright']);
/** Hidden paths named in a walk's result at most. */
const MAX_NAMED_HIDDEN = 16;

/** Largest `.gitignore` honoured; a bigger one is skipped rather than read whole. */
const MAX_GITIGNORE_BYTES = 1 << 20;

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
  /** Honour `.gitignore` files found on the way (default true). */
  gitignore?: boolean;
  /** Leave out `.git/` and `.toolwright/` (default true); a scan of all a tree holds passes false. */
  skipInternal?: boolean;
  /** Stop after this many entries. */
  limit?: number;
  /**
   * Per entry, by its path relative to the start: `hide` leaves it out and does not enter it (it is
   * named in the result's `hidden`), `leaf` lists it without entering it; undefined walks on.
   */
  judge?: (relative: string, kind: WalkEntry['kind']) => 'hide' | 'leaf' | undefined;
  /** Stop after looking at this many entries, those skipped included (then `capped` is true); default no cap. */
  maxVisited?: number;
  /**
   * The start is a real path (a workspace resolved it, checking where it leads). If it leads elsewhere
   * when the walk begins, a part of it was swapped for a link since: nothing is walked and
   * `unreadable` is set, rather than the walk following the link out of the workspace.
   */
  startIsReal?: boolean;
  /**
   * Look up each entry's size and time (default true). False takes the kind from the directory
   * listing alone (a `stat` only where the file system does not say): a scan for names is then
   * several times cheaper, and entries carry size and time 0.
   */
  metadata?: boolean;
  /**
   * Called with each directory the walk lists, relative to the start (`''` for the start), and its
   * status taken before its names are read — so a later change to its names shows as a newer mtime.
   */
  onDirectory?: (relative: string, stat: fs.BigIntStats) => void;
}

/**
 * How far a walk went: the entries it looked at (those skipped included), whether `maxVisited`
 * stopped it, what `judge` hid, and whether all was readable.
 */
export interface WalkProgress {
  visited: number;
  capped: boolean;
  /** Paths `judge` hid (relative to the start; the first 16). */
  hidden: string[];
  /** True when a directory could not be read, or changed under the walk (it went on without it). */
  unreadable: boolean;
  /** The directories that could not be opened (relative to the start; the first 16). */
  unopened?: string[];
}

/** What a walk found: the entries, whether the limit cut it short, and how far it went. */
export interface WalkResult extends WalkProgress {
  entries: WalkEntry[];
  truncated: boolean;
}

/** One directory being read: its entries' types and metadata, looked up inside that very directory. */
interface OpenedDirectory {
  names: fs.Dirent[];
  /** Names left out because they are not UTF-8. */
  skipped: boolean;
  /** Its status, taken before the names were read. */
  stat: fs.BigIntStats;
  lstat(name: string): fs.Stats | undefined;
  readGitignore(): string | undefined;
  close(): void;
}

/** Entries looked at between the points where an asynchronous walk may let other work run. */
const CHECKPOINT_EVERY = 256;

/**
 * The one tree walker: every listing, glob, search and tree scan of the core tools goes through it
 * (`walkWorkspace` binds it to a workspace's hidden paths). Breadth-first, sorted by name, without
 * following symlinks (a link is reported, never entered), skipping `.git/` and `.toolwright/`,
 * honouring `.gitignore` files at every level with the `ignore` library (git's own matching rules),
 * bounded by `limit` (entries returned) and `maxVisited` (entries looked at). Each directory is opened
 * without following links and checked to be where the walk expects it, so one swapped for a link to
 * elsewhere during the walk is skipped, never listed.
 */
export function walk(start: string, options: WalkOptions = {}): WalkResult {
  const limit = options.limit ?? Infinity;
  const entries: WalkEntry[] = [];
  const progress = freshProgress();
  for (const step of walkSteps(start, options, progress)) {
    if (!step) continue;
    entries.push(step);
    if (entries.length >= limit) return { entries, truncated: true, ...progress };
  }
  return { entries, truncated: false, ...progress };
}

/**
 * `walk` for trees whose size a model controls: hands each entry to `visit` (which may return
 * `'stop'`, or a promise, awaited before the walk goes on) instead of collecting them, lets other
 * work run every few milliseconds, and rejects with the signal's reason when it aborts. Set
 * `maxVisited` to bound the work.
 */
export async function walkAsync(
  start: string,
  options: WalkOptions & { signal?: AbortSignal | undefined },
  visit: (entry: WalkEntry) => void | 'stop' | Promise<void | 'stop'>,
): Promise<WalkProgress> {
  const progress = freshProgress();
  const slices = new TimeSlices(options.signal);
  for (const step of walkSteps(start, options, progress)) {
    await slices.next();
    if (step && (await visit(step)) === 'stop') break;
  }
  return { ...progress };
}

function freshProgress(): WalkProgress {
  return { visited: 0, capped: false, hidden: [], unreadable: false };
}

/** The walk itself: each entry in turn, and `undefined` every `CHECKPOINT_EVERY` entries looked at. */
function* walkSteps(start: string, options: WalkOptions, progress: WalkProgress): Generator<WalkEntry | undefined, void> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxVisited = options.maxVisited ?? Infinity;
  const skipInternal = options.skipInternal !== false;
  const extra = options.exclude && options.exclude.length > 0 ? ignore().add([...options.exclude]) : undefined;
  let realStart: string;
  try {
    realStart = fs.realpathSync.native(start);
  } catch {
    return;
  }
  // Each directory below is checked against `realStart`, so the start itself must be where it was resolved to be.
  if (options.startIsReal && realStart !== path.resolve(start)) {
    progress.unreadable = true;
    return;
  }
  const queue: { relative: string; depth: number; rules: { base: string; matcher: Ignore }[] }[] = [{ relative: '', depth: 1, rules: [] }];
  while (queue.length > 0) {
    const { relative, depth, rules } = queue.shift()!;
    // Reads no more names than the cap leaves (and one to see that it is reached): a directory of millions stays cheap.
    const opened = openForListing(path.join(realStart, relative), maxVisited - progress.visited + 1);
    if (!opened) {
      progress.unreadable = true; // unreadable, gone or swapped: skipped, as `find` would report and go on
      if ((progress.unopened ??= []).length < 16) progress.unopened.push(relative);
      continue;
    }
    try {
      if (opened.skipped) progress.unreadable = true;
      options.onDirectory?.(relative, opened.stat);
      let levelRules = rules;
      if (options.gitignore !== false && opened.names.some((d) => d.name === '.gitignore' && d.isFile())) {
        const text = opened.readGitignore();
        if (text !== undefined) levelRules = [...rules, { base: relative, matcher: ignore().add(text) }];
      }
      opened.names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of opened.names) {
        if (progress.visited >= maxVisited) {
          progress.capped = true;
          return;
        }
        if (++progress.visited % CHECKPOINT_EVERY === 0) yield undefined;
        if (skipInternal && SKIPPED.has(dirent.name)) continue;
        const childRelative = relative ? `${relative}/${dirent.name}` : dirent.name;
        const test = dirent.isDirectory() ? `${childRelative}/` : childRelative;
        if (extra?.ignores(test) || levelRules.some((rule) => rule.matcher.ignores(rule.base ? test.slice(rule.base.length + 1) : test))) continue;
        const known = options.metadata === false ? kindOf(dirent) : undefined;
        const stat = known ? undefined : opened.lstat(dirent.name);
        if (!known && !stat) continue;
        const kind = known ?? kindOf(stat!) ?? 'other';
        const verdict = options.judge?.(childRelative, kind);
        if (verdict === 'hide') {
          if (progress.hidden.length < MAX_NAMED_HIDDEN) progress.hidden.push(childRelative);
          continue;
        }
        yield {
          relative: childRelative,
          absolute: path.join(start, childRelative),
          kind,
          size: kind === 'file' && stat ? stat.size : 0,
          mtimeMs: stat ? stat.mtimeMs : 0,
          depth,
        };
        if (kind === 'directory' && depth < maxDepth && verdict !== 'leaf') queue.push({ relative: childRelative, depth: depth + 1, rules: levelRules });
      }
    } finally {
      opened.close();
    }
  }
}

/** Opens a directory for listing (at most `maxNames` of its names), or undefined when it cannot be read or is no longer where expected. */
function openForListing(dir: string, maxNames: number): OpenedDirectory | undefined {
  try {
    if (!hasDescriptorPaths) return openByPath(dir, maxNames);
    const fd = openDirectory(dir, dir, dir);
    if (fd === undefined) return undefined;
    try {
      const stat = fs.fstatSync(fd, { bigint: true });
      return {
        stat,
        ...readNames(`/proc/self/fd/${fd}`, maxNames),
        lstat: (name) => lstatOrUndefined(at(fd, name)),
        readGitignore: () => readPlainFile(at(fd, '.gitignore'), MAX_GITIGNORE_BYTES, { followLinks: false }),
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
function openByPath(dir: string, maxNames: number): OpenedDirectory | undefined {
  if (fs.realpathSync.native(dir) !== dir) return undefined;
  const stat = fs.lstatSync(dir, { bigint: true });
  return {
    stat,
    ...readNames(dir, maxNames),
    lstat: (name) => lstatOrUndefined(path.join(dir, name)),
    readGitignore: () => readPlainFile(path.join(dir, '.gitignore'), MAX_GITIGNORE_BYTES, { followLinks: false }),
    close: () => {},
  };
}

/**
 * Up to `maxNames` entries of a directory (names left out counted; `more` when it holds more), read in batches
 * rather than whole. A name that is not
 * UTF-8 is left out and makes the listing incomplete (`skipped`): decoded, it would become another
 * name (U+FFFD), which the walk would open in its place, or fail to.
 */
export function readNames(dir: string, maxNames: number): { names: fs.Dirent[]; skipped: boolean; more: boolean } {
  const names: fs.Dirent[] = [];
  let skipped = false;
  let more = false;
  // Node reads names as bytes with `encoding: 'buffer'`; its types know only text encodings here.
  const handle = fs.opendirSync(dir, { bufferSize: 1024, encoding: 'buffer' as BufferEncoding });
  try {
    // Every name read counts, those left out too: a folder of millions of undecodable names stays as cheap.
    let read = 0;
    for (let dirent = handle.readSync(); dirent !== null; dirent = handle.readSync()) {
      if (read++ === maxNames) {
        more = true;
        break;
      }
      const raw = dirent.name as unknown as Buffer;
      const name = raw.toString('utf8');
      if (!Buffer.from(name, 'utf8').equals(raw)) skipped = true;
      else names.push(Object.assign(dirent, { name }));
    }
  } finally {
    handle.closeSync();
  }
  return { names, skipped, more };
}

/** An entry's kind from a listing or a status; undefined where a listing cannot say (then its status is looked up). */
function kindOf(entry: fs.Dirent | fs.Stats): WalkEntry['kind'] | undefined {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'other';
  return undefined;
}

function lstatOrUndefined(pathname: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(pathname);
  } catch {
    return undefined;
  }
}
