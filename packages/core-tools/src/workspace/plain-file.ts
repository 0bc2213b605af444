import fs from 'node:fs';

/**
 * The text of a plain file of at most `maxBytes`, read on the host from where commands write (a `.gitignore` a walk
 * meets, a repository's configuration, a `.git` file, a hook), or undefined. A command can put anything there: a
 * FIFO (an open would wait for a writer for good, and the host with it, holding every other command paused — found
 * by a thirteenth pass with `mkfifo sub/.git/commondir`), a device, a file of gigabytes. So it is looked at before
 * it is opened, opened without waiting (`O_NONBLOCK`), checked again on the descriptor (a swap in between), and read
 * no further than the bound. `followLinks: false` opens only the file itself (`O_NOFOLLOW`).
 */
export function readPlainFile(file: string, maxBytes: number, { followLinks = true }: { followLinks?: boolean } = {}): string | undefined {
  try {
    const before = followLinks ? fs.statSync(file) : fs.lstatSync(file);
    if (!before.isFile() || before.size > maxBytes) return undefined;
  } catch {
    return undefined;
  }
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (followLinks ? 0 : fs.constants.O_NOFOLLOW));
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(Math.min(maxBytes, stat.size) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = fs.readSync(fd, buffer, length, buffer.length - length, length);
    return length > maxBytes ? undefined : buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
