import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../output/normalize-output.js';

/** What an entry file says it is: a file of another shape (or another version of this one) is no entry. */
const FORMAT = 'toolwright-output-cache/1';
/** A temporary file this old was left by a writer that died before renaming it. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/**
 * `pure` tools' outputs on disk, one file per key (`<dir>/<key>.json`), shared by every executor and
 * process that names the directory. Writes are atomic (a temporary file renamed into place); an entry is
 * checked when read (its format, key and the sha-256 of its output), and one that fails is removed and
 * counts as a miss, to be replaced by the next output. Past `maxBytes` the least recently used entries (by
 * modification time, which a hit renews) are removed. Every failure is a miss or an entry not kept:
 * nothing here throws to the caller.
 */
export class DiskCache {
  /** The entries' total size as this process last counted it; counted anew when first needed and when over the bound. */
  private bytes: number | undefined = undefined;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** The output JSON kept under `key`, or undefined (none, unreadable or corrupt: a corrupt entry is removed). */
  async get(key: string): Promise<string | undefined> {
    const file = this.fileOf(key);
    let text: string;
    try {
      text = await fs.promises.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    const output = entryOutput(text, key);
    if (output === undefined) {
      await fs.promises.rm(file, { force: true }).catch(() => undefined);
      return undefined;
    }
    const now = new Date();
    await fs.promises.utimes(file, now, now).catch(() => undefined);
    return output;
  }

  /** Keeps `output` (canonical JSON) under `key`, then removes the least recently used entries past the bound. */
  async set(key: string, tool: string, output: string): Promise<void> {
    const text = `${JSON.stringify({ format: FORMAT, key, tool, outputHash: sha256Hex(output), output })}\n`;
    const size = Buffer.byteLength(text);
    if (size > this.maxBytes) return;
    const file = this.fileOf(key);
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.writeFile(temporary, text, { flag: 'wx' });
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
    const entries: { file: string; size: number; used: bigint }[] = [];
    const now = Date.now();
    for (const name of await fs.promises.readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const stat = await fs.promises.stat(file, { bigint: true }).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - Number(stat.mtimeMs) > STALE_TEMPORARY_MS) await fs.promises.rm(file, { force: true }).catch(() => undefined);
      } else if (/^[0-9a-f]{64}\.json$/.test(name)) {
        entries.push({ file, size: Number(stat.size), used: stat.mtimeNs });
      }
    }
    entries.sort((a, b) => (a.used < b.used ? -1 : a.used > b.used ? 1 : 0));
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of entries) {
      if (total <= this.maxBytes) break;
      await fs.promises.rm(entry.file, { force: true }).catch(() => undefined);
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
