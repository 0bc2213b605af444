import fs from 'node:fs';
import path from 'node:path';
import { scanLog } from './scan-log.js';

/**
 * Rotated audit files sit beside the log: `<log>.1` is the newest, `<log>.<keep>` the oldest kept.
 * Existing ones, oldest first (the order their records were written in).
 */
export function rotatedFiles(logPath: string): string[] {
  const dir = path.dirname(logPath);
  const prefix = `${path.basename(logPath)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^[1-9]\d*$/.test(name.slice(prefix.length)))
    .map((name) => ({ file: path.join(dir, name), n: Number(name.slice(prefix.length)) }))
    .sort((a, b) => b.n - a.n)
    .map(({ file }) => file);
}

/**
 * Moves `<log>` to `<log>.1`, each `<log>.n` to `<log>.n+1`, and deletes what would pass `<log>.<keep>`;
 * then syncs the directory, so the renames survive a crash. An open descriptor keeps writing to the
 * file it opened, whatever its name now is.
 */
export function rotateFiles(logPath: string, keep: number): void {
  for (const file of rotatedFiles(logPath)) {
    const n = Number(file.slice(logPath.length + 1));
    if (n >= keep) fs.rmSync(file, { force: true });
    else fs.renameSync(file, `${logPath}.${n + 1}`);
  }
  fs.renameSync(logPath, `${logPath}.1`);
  syncDirectory(path.dirname(logPath));
}

function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The last `seq` written before the current file: that of the newest rotated file holding records (0 if none). */
export function lastRotatedSeq(logPath: string): number {
  for (const file of rotatedFiles(logPath).reverse()) {
    const bytes = readNoFollow(file);
    if (bytes === undefined) continue;
    const scan = scanLog(bytes, file);
    if (scan.lastSeq > 0) return scan.lastSeq;
  }
  return 0;
}

/** A rotated file's bytes, never through a link (a link in its place is no rotated file). */
export function readNoFollow(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    throw error;
  }
  try {
    return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd) : undefined;
  } finally {
    fs.closeSync(fd);
  }
}
