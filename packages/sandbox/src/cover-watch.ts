import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from './is-within.js';

/** How often a folder without a kernel watch is looked at. */
const POLL_MS = 50;

/** The running watches of this process, each ending its sandbox if it covers a path about to be replaced. */
const running = new Set<(target: string) => boolean>();

/**
 * Ends, before this process replaces or removes `target` (a write a person approved, a delete), every sandbox
 * of this process that covers it or a path below it, or has it on the way to one: `onBroken` runs now, before the
 * new file exists, so no command of such a sandbox sees it. The kernel's watch alone reacts after the fact, and a
 * command polling for the new file has a moment to use it.
 * @returns false when a sandbox's processes were still there once its `onBroken` returned (the change must wait).
 */
export function endSandboxesCovering(target: string): boolean {
  let ended = true;
  for (const end of [...running]) if (!end(target)) ended = false;
  return ended;
}

/**
 * Watches the paths a running sandbox covers (mounted read-only, or hidden under an empty mount)
 * and calls `onBroken` with the first whose file or folder the host replaced or removed. A mount
 * holds the file it was made on, not its name: when the host puts another file in its place (an
 * editor saving by rename, `sed -i`, `git checkout`, a write a person approved), the new one is plain
 * workspace content in every sandbox still running — a denied file readable, a protected one
 * writable — so such a sandbox must end. So must one whose folder on the way from `root` the host replaced
 * (`mv conf conf.old; mkdir conf`: the sandbox's `conf/prod.key` is then the new folder's, found by a fourteenth
 * pass). Watched through the kernel (inotify), a folder once however many covered names it holds; paths missing
 * when the watch starts are not watched. A folder the kernel will not watch is looked at every `POLL_MS` instead:
 * inotify's instances and watches are counted per user for the whole machine, and a command can use them up (a red-team
 * pass held 127 instances from a background job) — failing closed then refused every later command, and said a path
 * had been replaced. `onBroken` returns false when the sandbox's processes are not gone yet (see `endSandboxesCovering`).
 * @returns a function that stops the watch.
 */
export function watchCovers(paths: readonly string[], onBroken: (covered: string) => boolean | void, root?: string): () => void {
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
      unended(onBroken(full));
      return;
    }
  };
  // Events the kernel dropped (a full queue) are caught by a look at every covered path twice a second.
  const backstop = setInterval(() => byFolder.forEach((names, folder) => check(folder, names, null)), 500);
  backstop.unref();
  /** Folders the kernel does not watch (no watch could be made, or it failed), looked at every `POLL_MS`. */
  const unwatched = new Map<string, Map<string, string>>();
  let poll: NodeJS.Timeout | undefined;
  const lookInstead = (folder: string, names: Map<string, string>) => {
    unwatched.set(folder, names);
    if (poll) return;
    poll = setInterval(() => unwatched.forEach((each, at) => check(at, each, null)), POLL_MS);
    poll.unref();
  };
  // The covered paths first: a change to a folder holding one names the path it covered.
  const watched = [...paths, ...onTheWay];
  const endIfCovering = (target: string) => {
    const covered = watched.find((each) => isWithin(target, each));
    if (covered === undefined) return true;
    stop();
    return unended(onBroken(covered));
  };
  /**
   * A sandbox whose processes were still there once `onBroken` returned (no control group to kill; one that would
   * not die) stays among the running ones, so that every later change to what it covered asks again (and waits)
   * instead of going ahead, until the sandbox's owner stops the watch as its last process ends.
   */
  let lingering = false;
  const unended = (ended: boolean | void): boolean => {
    if (ended !== false) return true;
    if (!lingering) {
      lingering = true;
      running.add(endIfCovering);
    }
    return false;
  };
  running.add(endIfCovering);
  const stop = () => {
    running.delete(endIfCovering);
    lingering = false;
    if (stopped) return;
    stopped = true;
    clearInterval(backstop);
    clearInterval(poll);
    for (const watcher of watchers) watcher.close();
  };
  for (const [folder, names] of byFolder) {
    try {
      const watcher = fs.watch(folder, { persistent: false }, (event, name) =>
        check(folder, names, typeof name === 'string' ? name : null, event === 'rename'),
      );
      watcher.on('error', () => {
        check(folder, names, null);
        lookInstead(folder, names);
      });
      watchers.push(watcher);
    } catch {
      // No watch: the user's inotify instances or watches are used up (by a command, too), or the folder went.
      lookInstead(folder, names);
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
