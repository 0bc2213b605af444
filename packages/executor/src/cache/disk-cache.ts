import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_JSON_CHARS, sha256Hex } from '../output/normalize-output.js';

/** What an entry file says it is: a file of another shape (or another version of this one) is no entry. */
const FORMAT = 'toolwright-output-cache/1';
/** A temporary file this old was left by a writer that died before renaming it. */
const STALE_TEMPORARY_MS = 10 * 60_000;
/**
 * The largest entry read or kept, whatever `maxBytes` says: an output is at most `MAX_JSON_CHARS` characters,
 * which escaped into the entry and encoded as UTF-8 stay well below this.
 */
const MAX_ENTRY_BYTES = 6 * MAX_JSON_CHARS + 4096;
/** Names this cache writes: entries, and temporary files (`<entry>.<pid>.<12 hex>.tmp`). Nothing else is touched. */
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
const TEMPORARY_NAME = /^[0-9a-f]{64}\.json\.\d+\.[0-9a-f]{12}\.tmp$/;
// O_NOFOLLOW: an entry that is a link is no entry; O_NONBLOCK: opening a FIFO does not wait for a writer.
const OPEN_ENTRY = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Why `dir` cannot be the cache's folder, or undefined when it can (or does not exist yet: it is created, private,
 * on the first write): it must be a real folder, not a symbolic link, owned by the current user where there are uids.
 */
export function checkCacheFolder(dir: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) return `the cache folder ${dir} is a symbolic link; give a real folder`;
  if (!stat.isDirectory()) return `the cache folder ${dir} is not a folder`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `the cache folder ${dir} belongs to another user (uid ${stat.uid}); give a folder of your own`;
  return undefined;
}

/**
 * `pure` tools' outputs on disk, one file per key (`<dir>/<key>.json`), shared by every executor and
 * process that names the directory. Writes are atomic (a temporary file renamed into place); an entry is
 * checked when read (its format, key and the sha-256 of its output), and one that fails is removed and
 * counts as a miss, to be replaced by the next output. Past `maxBytes` the least recently used entries (by
 * modification time, which a hit renews) are removed. Every failure is a miss or an entry not kept:
 * nothing here throws to the caller.
 *
 * The folder is checked before each use (`checkCacheFolder`: a link or another user's folder is no cache). An entry
 * is opened without following links and without waiting (a FIFO), and read only when it is a regular file no larger
 * than `maxBytes`; anything else is a miss. Only this cache's own names are ever removed, never through a link.
 */
export class DiskCache {
  /** The entries' total size as this process last counted it; counted anew when first needed and when over the bound. */
  private bytes: number | undefined = undefined;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** The output JSON kept under `key`, or undefined (none, unreadable or corrupt: a corrupt entry is removed). */
  async get(key: string, signal?: AbortSignal): Promise<string | undefined> {
    if (checkCacheFolder(this.dir) !== undefined) return undefined;
    const file = this.fileOf(key);
    const text = await this.read(file, signal);
    if (text === 'not-an-entry') {
      await this.remove(file);
      return undefined;
    }
    if (text === undefined) return undefined;
    const output = entryOutput(text, key);
    if (output === undefined) {
      await this.remove(file);
      return undefined;
    }
    const now = new Date();
    await fs.promises.utimes(file, now, now).catch(() => undefined);
    return output;
  }

  /** Removes the entry kept under `key` (one found corrupt), if there is one. */
  async delete(key: string): Promise<void> {
    if (checkCacheFolder(this.dir) === undefined) await this.remove(this.fileOf(key));
  }

  /** An entry's text; `not-an-entry` for a file in its place that is not a regular file of a sane size; undefined when unreadable. */
  private async read(file: string, signal: AbortSignal | undefined): Promise<string | undefined | 'not-an-entry'> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, OPEN_ENTRY);
    } catch (error) {
      // ELOOP: the entry is a symbolic link (O_NOFOLLOW); unlinking it removes the link, never its target.
      return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'not-an-entry' : undefined;
    }
    try {
      const stat = await handle.stat();
      if (stat.isDirectory()) return undefined; // not ours to remove
      if (!stat.isFile() || stat.size > Math.min(this.maxBytes, MAX_ENTRY_BYTES)) return 'not-an-entry';
      const buffer = Buffer.alloc(stat.size);
      let length = 0;
      while (length < buffer.length) {
        if (signal?.aborted) return undefined;
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      return buffer.toString('utf8', 0, length);
    } catch {
      return undefined;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** Unlinks one of this cache's own files (a link is unlinked itself; a folder is left alone). */
  private async remove(file: string): Promise<void> {
    const stat = await fs.promises.lstat(file).catch(() => undefined);
    if (stat === undefined || stat.isDirectory()) return;
    await fs.promises.unlink(file).catch(() => undefined);
  }

  /** Keeps `output` (canonical JSON) under `key`, then removes the least recently used entries past the bound. */
  async set(key: string, tool: string, output: string): Promise<void> {
    const text = `${JSON.stringify({ format: FORMAT, key, tool, outputHash: sha256Hex(output), output })}\n`;
    const size = Buffer.byteLength(text);
    if (size > Math.min(this.maxBytes, MAX_ENTRY_BYTES)) return;
    const file = this.fileOf(key);
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
      if (checkCacheFolder(this.dir) !== undefined) return;
      await fs.promises.writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
      await fs.promises.rename(temporary, file);
    } catch {
      await fs.promises.rm(temporary, { force: true }).catch(() => undefined);
      return;
    }
    if (this.bytes !== undefined) this.bytes += size;
    if (this.bytes === undefined || this.bytes > this.maxBytes) await this.evict().catch(() => undefined);
  }

  /** Counts the entries and removes the least recently used until they fit `maxBytes`; also stale temporary files. */
  private async evict(): Promise<void> {
    if (checkCacheFolder(this.dir) !== undefined) return;
    const entries: { file: string; size: number; used: bigint }[] = [];
    const now = Date.now();
    for (const name of await fs.promises.readdir(this.dir)) {
      const entry = ENTRY_NAME.test(name);
      if (!entry && !TEMPORARY_NAME.test(name)) continue; // not a file this cache wrote
      const file = path.join(this.dir, name);
      const stat = await fs.promises.lstat(file, { bigint: true }).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (!entry) {
        if (now - Number(stat.mtimeMs) > STALE_TEMPORARY_MS) await fs.promises.unlink(file).catch(() => undefined);
      } else {
        entries.push({ file, size: Number(stat.size), used: stat.mtimeNs });
      }
    }
    entries.sort((a, b) => (a.used < b.used ? -1 : a.used > b.used ? 1 : 0));
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of entries) {
      if (total <= this.maxBytes) break;
      await fs.promises.unlink(entry.file).catch(() => undefined);
      total -= entry.size;
    }
    this.bytes = total;
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }
}

/** The output JSON of an entry file's text, when it is a whole entry for `key` whose output matches its hash. */
function entryOutput(text: string, key: string): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { format, key: entryKey, output, outputHash } = entry as Record<string, unknown>;
  if (format !== FORMAT || entryKey !== key || typeof output !== 'string' || typeof outputHash !== 'string') return undefined;
  return sha256Hex(output) === outputHash ? output : undefined;
}
