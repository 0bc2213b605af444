import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the host looks for the programs it runs itself (bubblewrap, `flock`, ripgrep, git): the system's program
 * folders, never `PATH`. `npx` and `npm run` put `<project>/node_modules/.bin` first on `PATH`, and the project is
 * usually the workspace, where commands write: a `flock` or `rg` planted there ran on the host (found by a tenth pass).
 */
export const SYSTEM_PROGRAM_FOLDERS = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin', '/opt/homebrew/bin'];

/** The environment the host's own helpers run with: the system's program folders only, nothing inherited (no `BASH_ENV`). */
export const HELPER_ENV: Readonly<Record<string, string>> = { PATH: '/usr/bin:/bin' };

/** The absolute path of a program in the system's program folders, or undefined. */
export function systemProgram(name: string): string | undefined {
  for (const folder of SYSTEM_PROGRAM_FOLDERS) {
    const file = path.join(folder, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
