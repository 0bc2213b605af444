import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin } from '@toolwright/sandbox';

/** The system's program folders, and the places the sandbox makes itself: every sandbox shows its own of these. */
const SANDBOX_PROVIDED = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/proc', '/dev', '/sys', '/run'];

/**
 * The command's own files, canonical: the program and the files its arguments name (relative to `cwd`: the script of
 * `['python3', './tool.py']`), but those of the system's folders, which every sandbox shows anyway.
 */
export function commandFiles(program: string, args: readonly string[], cwd: string): string[] {
  const files: string[] = [];
  for (const candidate of [program, ...args.map((arg) => path.resolve(cwd, arg))]) {
    try {
      if (!fs.statSync(candidate).isFile()) continue;
      const real = fs.realpathSync(candidate);
      if (!isProvided(real)) files.push(real);
    } catch {
      // not a file's name (an option, code, data)
    }
  }
  return [...new Set(files)];
}

export function isProvided(entry: string): boolean {
  return SANDBOX_PROVIDED.some((folder) => isWithin(folder, entry));
}

/**
 * The folder a reader's view shows when there is no workspace: the tool's folder, or the nearest folder holding it
 * and the command's files (`src/` and `../tools/word_stats.py`: the project) — unless that is `/` or holds a home
 * directory, when the tool's folder alone is shown and the files' folders are mounted one by one.
 */
export function readerRoot(toolDir: string, files: readonly string[]): string {
  let root = toolDir;
  for (const file of files) while (!isWithin(root, file)) root = path.dirname(root);
  const homes = [os.homedir(), '/root', '/home'].filter((home) => home !== '' && home !== '/');
  return root === '/' || homes.some((home) => isWithin(root, home)) ? toolDir : root;
}
