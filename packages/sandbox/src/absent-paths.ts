import fs from 'node:fs';

/**
 * Paths that must not come into being through a sandboxed command, though a mount cannot stop it:
 * bubblewrap can make an existing `.git` read-only, but a missing one has nothing to mount over
 * (a mount point would first have to be created in the host's workspace). Those missing before the
 * command are recorded; `removeCreated` removes whichever exists afterwards — links themselves,
 * never what they point to — and says which.
 */
export class AbsentPaths {
  private readonly absent: string[];

  constructor(paths: readonly string[]) {
    this.absent = paths.filter((entry) => !exists(entry));
  }

  /** The recorded paths that exist now, each removed. */
  removeCreated(): string[] {
    const created = this.absent.filter(exists);
    for (const entry of created) fs.rmSync(entry, { recursive: true, force: true });
    return created;
  }
}

function exists(entry: string): boolean {
  try {
    fs.lstatSync(entry);
    return true;
  } catch {
    return false;
  }
}
