import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

/**
 * Where Node ≥ 22.1 keeps the code V8 compiled for the modules the CLI loads (`module.enableCompileCache(folder)`):
 * in the folder Toolwright's processes of this user share — the same place `@toolwright/sandbox`'s
 * `sharedDirectoryPath` names (/run/user/<uid>, else /tmp, `toolwright-<uid>`; not imported, so that it is known
 * before any module is loaded), mode 0700 and this user's — never where TMPDIR says: it may lie in a workspace, where a
 * sandboxed command could plant compiled code the next start would run (found by a review). Undefined when that
 * folder cannot be made or is not this user's alone (then there is no cache).
 */
export function compileCacheFolder(): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    const base = [`/run/user/${uid}`, '/tmp'].find((candidate) => isDirectory(candidate));
    if (base === undefined) return undefined;
    const shared = path.join(base, `toolwright-${uid}`);
    try {
      fs.mkdirSync(shared, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const stat = fs.lstatSync(shared);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) return undefined;
    const folder = path.join(shared, 'compile-cache');
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    return folder;
  } catch {
    return undefined;
  }
}

/** Turns Node's compile cache on in `compileCacheFolder()` (Node ≥ 22.1; unless TOOLWRIGHT_NO_CODE_CACHE=1); whether it is on. */
export function enableCompileCache(): boolean {
  const enable = (Module as { enableCompileCache?: (folder: string) => unknown }).enableCompileCache;
  if (process.env.TOOLWRIGHT_NO_CODE_CACHE === '1' || typeof enable !== 'function') return false;
  const folder = compileCacheFolder();
  if (folder === undefined) return false;
  try {
    enable(folder);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
