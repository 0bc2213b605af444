import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin } from './is-within.js';

// Everything a Toolwright process keeps for itself on the host — the hosts' record (`hosts.ts`), the turn's lock
// (`turn.ts`), the process registry (`process-groups.ts`), the files sandboxes are built from (`sandbox-assets.ts`)
// — lives in one folder of the user's, at a fixed place: never where TMPDIR says, which may lie in a workspace (found
// by a tenth pass: a command replaced the sandbox's /etc copy with a link to the host's /etc, which the next sandbox
// mounted), and a workspace that holds it is refused (`holdsSharedDirectory`).

/** Where the folder is: the user's runtime folder (/run/user/<uid>, shared by the user's services whatever their private /tmp), else /tmp. */
export function sharedDirectoryPath(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const base = [`/run/user/${uid}`, '/tmp'].find((candidate) => isDirectory(candidate)) ?? os.tmpdir();
  return path.join(base, `toolwright-${uid}`);
}

let shared: string | undefined;

/** The folder, made on first use (mode 0700) and refused when another user could write it. */
export function sharedDirectory(): string {
  if (shared) return shared;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const dir = sharedDirectoryPath();
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`the folder Toolwright processes share (${dir}) cannot be made: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0)
    throw new Error(`${dir}, the folder Toolwright processes of this user share, is not a folder only this user may write; remove it`);
  return (shared = dir);
}

/** A folder of the shared one (`hosts`, `assets`, ...), made when missing. */
export function sharedSubdirectory(name: string): string {
  const dir = path.join(sharedDirectory(), name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Why `root` cannot be a workspace: it holds the shared folder, which its tools could then change (the turn's lock,
 * the record of placeholders, the files sandboxes are built from). Undefined when it can.
 */
export function holdsSharedDirectory(root: string): string | undefined {
  const dir = sharedDirectoryPath();
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return undefined;
  }
  // The package's one comparison of paths: a hand-made `startsWith('..')` took a folder named `..x` for outside.
  if (isWithin(real, dir))
    return `the workspace ${root} holds ${dir}, where Toolwright keeps what its processes share (locks, records, the files sandboxes are built from), which its tools must not reach; choose the project's own folder`;
  return undefined;
}

function isDirectory(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
