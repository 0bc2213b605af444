import fs from 'node:fs';

/**
 * A file system may stamp times as coarsely as 2 s: a directory changed this close to when it was
 * listed may change again with the same mtime, so its listing is not trusted later (git's "racy" rule).
 */
const RACY_NS = 2_000_000_000n;

interface Listed {
  path: string;
  dev: bigint;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/**
 * The directories a scan listed, each with its status taken before its names were read. A name
 * added, removed or renamed in a directory gives it a newer mtime, and a directory moved or replaced
 * is another inode or has a newer ctime: while every one is as it was, what the scan found by name
 * still holds, and the scan need not run again.
 */
export class ListedDirectories {
  private readonly listed: Listed[] = [];
  private racy = false;
  private readonly startedNs = BigInt(Date.now()) * 1_000_000n;
  private readonly rootNames: string;

  /**
   * Starts a look at the tree under `root`. The root is compared by its names, read now (before the
   * scan), leaving out `ignored` ones — names that come and go for reasons of their own (the
   * sandbox's placeholders for missing protected paths), which the caller checks afresh each time.
   */
  constructor(
    private readonly root: string,
    private readonly ignored: ReadonlySet<string>,
  ) {
    this.rootNames = this.namesOfRoot();
  }

  /** Records one listed directory (the walk's `onDirectory`). */
  record(path: string, stat: fs.BigIntStats): void {
    if (path === this.root) return;
    if (stat.mtimeNs + RACY_NS >= this.startedNs || stat.ctimeNs + RACY_NS >= this.startedNs) this.racy = true;
    this.listed.push({ path, dev: stat.dev, ino: stat.ino, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs });
  }

  /** Whether every recorded directory is still there, unchanged (and none was changed too close to the scan to tell). */
  unchanged(): boolean {
    if (this.racy) return false;
    if (this.namesOfRoot() !== this.rootNames) return false;
    for (const entry of this.listed) {
      let now: fs.BigIntStats;
      try {
        now = fs.lstatSync(entry.path, { bigint: true });
      } catch {
        return false;
      }
      if (!now.isDirectory() || now.dev !== entry.dev || now.ino !== entry.ino || now.mtimeNs !== entry.mtimeNs || now.ctimeNs !== entry.ctimeNs) return false;
    }
    return true;
  }

  private namesOfRoot(): string {
    try {
      return fs
        .readdirSync(this.root)
        .filter((name) => !this.ignored.has(name))
        .sort()
        .join('\0');
    } catch {
      return '\0unreadable';
    }
  }
}
