import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from './is-within.js';

/**
 * Watches the paths a running sandbox covers (mounted read-only, or hidden under an empty mount)
 * and calls `onBroken` with the first whose file or folder the host replaced or removed. A mount
 * holds the file it was made on, not its name: when the host puts another file in its place (an
 * editor saving by rename, `sed -i`, `git checkout`, a write a person approved), the new one is plain
 * workspace content in every sandbox still running — a denied file readable, a protected one
 * writable — so such a sandbox must end. So must one whose folder on the way from `root` the host replaced
 * (`mv conf conf.old; mkdir conf`: the sandbox's `conf/prod.key` is then the new folder's, found by a fourteenth
 * pass). Watched through the kernel (inotify), a folder once however many covered names it holds; paths missing
 * when the watch starts are not watched.
 * @returns a function that stops the watch.
 */
export function watchCovers(paths: readonly string[], onBroken: (covered: string) => void, root?: string): () => void {
  /** Folder → name → identity. */
  const byFolder = new Map<string, Map<string, string>>();
  const onTheWay = new Set<string>();
  for (const covered of paths)
    if (root !== undefined)
      for (let folder = path.dirname(covered); folder !== root && isWithin(root, folder); folder = path.dirname(folder)) onTheWay.add(folder);
  for (const covered of [...paths, ...onTheWay]) {
    const identity = identityOf(covered);
    if (identity === undefined) continue;
    const folder = path.dirname(covered);
    let names = byFolder.get(folder);
    if (!names) byFolder.set(folder, (names = new Map<string, string>()));
    names.set(path.basename(covered), identity);
  }
  let stopped = false;
  const watchers: fs.FSWatcher[] = [];
  // A name created, removed or moved over (`rename` events) is a replacement whatever its inode number (a file
  // deleted and made again may get the same one); otherwise the identity is compared.
  const check = (folder: string, names: Map<string, string>, name: string | null, renamed = false) => {
    if (stopped) return;
    for (const [covered, identity] of names) {
      if (name !== null && name !== covered) continue;
      const full = path.join(folder, covered);
      if (!(renamed && name === covered) && identityOf(full) === identity) continue;
      stop();
      onBroken(full);
      return;
    }
  };
  // Events the kernel dropped (a full queue) are caught by a look at every covered path twice a second.
  const backstop = setInterval(() => byFolder.forEach((names, folder) => check(folder, names, null)), 500);
  backstop.unref();
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(backstop);
    for (const watcher of watchers) watcher.close();
  };
  for (const [folder, names] of byFolder) {
    try {
      const watcher = fs.watch(folder, { persistent: false }, (event, name) =>
        check(folder, names, typeof name === 'string' ? name : null, event === 'rename'),
      );
      watcher.on('error', () => check(folder, names, null));
      watchers.push(watcher);
    } catch {
      // No watch (the kernel's watches used up, or the folder went): fails closed, the sandbox is ended.
      stop();
      onBroken(path.join(folder, [...names.keys()][0]!));
      return stop;
    }
    // Replaced between the plan and the watch: checked once the watch stands.
    check(folder, names, null);
  }
  return stop;
}

/** A file's device and inode (undefined when it is gone): what a mount holds on to. */
function identityOf(target: string): string | undefined {
  try {
    const stat = fs.lstatSync(target, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}
