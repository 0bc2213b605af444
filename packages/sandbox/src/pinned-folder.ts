import fs from 'node:fs';

const { O_RDONLY, O_DIRECTORY } = fs.constants;

/**
 * Runs `use` with the folder `dir` open, and only when the folder opened is the one at that very path: `dir` is
 * canonical (a workspace's paths are), so a link anywhere on the way — a command's `mv folder elsewhere; ln -s
 * /anywhere folder`, however late before the open — leads elsewhere and the folder is not used (undefined: missing,
 * swapped, or where `/proc/self/fd` cannot say where a descriptor points). `use` reaches entries of the folder with
 * `entryOf`, which names them inside exactly the folder opened, wherever it is moved meanwhile — Node's stand-in for
 * openat, mkdirat, unlinkat. Placeholders are made, checked and removed this way: by path, a command running beside
 * (a background job whose sandbox was planned before the folder existed) could swap a folder on the way between a
 * check and the act, and have the host remove or make what the link leads to — the workspace root's own placeholders,
 * or empty files outside the workspace (an independent review did both).
 */
export function inPinnedFolder<T>(dir: string, use: (folder: number) => T): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY);
  } catch {
    return undefined;
  }
  try {
    let actual: string;
    try {
      actual = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return undefined;
    }
    return actual === dir ? use(fd) : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The entry `name` of the folder open as `folder` (in `inPinnedFolder`). */
export function entryOf(folder: number, name: string): string {
  return `/proc/self/fd/${folder}/${name}`;
}
