import fs from 'node:fs';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** Which directory a path named when it was looked at (device and inode): a folder put in its place is another. */
export interface DirectoryIdentity {
  dev: number;
  ino: number;
}

/** The identity of the directory at `dir` now (following links: `dir` is canonical when the tools are set up). */
export function identityOf(dir: string): DirectoryIdentity {
  const stat = fs.statSync(dir);
  return { dev: stat.dev, ino: stat.ino };
}

/**
 * Why `workspace` can no longer be mounted as the workspace: it was replaced by another folder or a
 * link (a command of another tool set whose workspace holds this one can rename it), a folder on
 * its way is now a link, or it is gone. Undefined while it is the folder `identity` names, reached
 * by its own name.
 */
export function workspaceProblem(workspace: string, identity: DirectoryIdentity | undefined): string | undefined {
  let fd: number;
  try {
    fd = openWorkspace(workspace, identity);
  } catch (error) {
    return error instanceof WorkspaceMoved ? error.problem : `cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  fs.closeSync(fd);
  return undefined;
}

/**
 * Opens the workspace for bubblewrap to mount from the descriptor (`--bind-fd`): what is mounted is
 * the directory checked here, whatever is renamed after. Throws `WorkspaceMoved` when the workspace
 * is not the directory `identity` names, or is reached through a link.
 */
export function openWorkspace(workspace: string, identity: DirectoryIdentity | undefined): number {
  let fd: number;
  try {
    fd = fs.openSync(workspace, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new WorkspaceMoved(workspace, 'is now a symbolic link or no folder');
    if (code === 'ENOENT') throw new WorkspaceMoved(workspace, 'is gone (moved or removed)');
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (identity && (stat.dev !== identity.dev || stat.ino !== identity.ino)) throw new WorkspaceMoved(workspace, 'was replaced by another folder');
    // Where the kernel reached it: another path when a folder on the way is a link.
    const reached = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (reached !== workspace) throw new WorkspaceMoved(workspace, `is reached through a symbolic link (it leads to '${reached}')`);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The workspace is not the folder the tools were set up on. */
export class WorkspaceMoved extends Error {
  constructor(
    readonly workspace: string,
    readonly problem: string,
  ) {
    super(`the workspace '${workspace}' ${problem}`);
    this.name = 'WorkspaceMoved';
  }
}
