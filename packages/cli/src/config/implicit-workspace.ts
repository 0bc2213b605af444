import os from 'node:os';
import path from 'node:path';

/** Folders that are never a project: the root, the system's own, and the parents of users' homes. */
const SYSTEM_FOLDERS = new Set(
  [
    '/',
    '/bin',
    '/boot',
    '/etc',
    '/home',
    '/lib',
    '/lib32',
    '/lib64',
    '/libx32',
    '/media',
    '/mnt',
    '/opt',
    '/root',
    '/run',
    '/sbin',
    '/srv',
    '/tmp',
    '/usr',
    '/usr/bin',
    '/usr/lib',
    '/usr/local',
    '/usr/local/bin',
    '/usr/local/lib',
    '/usr/sbin',
    '/usr/share',
    '/var',
    '/var/lib',
    '/var/tmp',
    '/Applications',
    '/Library',
    '/System',
    '/Users',
    '/Volumes',
    '/private',
    '/private/tmp',
  ].map((folder) => path.resolve(folder)),
);
/** Trees nothing a tool set works on lives in. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev', '/etc', '/boot'];

/**
 * Why a folder cannot be the workspace when nobody named it (the current directory, with neither `--workspace`
 * nor a config file's `workspace.root`): MCP clients start servers in `/` (Claude Desktop) or ignore `cwd` (Claude
 * Code), and the tools would then reach the whole disk or the user's home. Undefined when it can.
 */
export function implicitWorkspaceProblem(root: string, home = os.homedir()): string | undefined {
  const resolved = path.resolve(root);
  const what =
    resolved === path.parse(resolved).root
      ? 'the root of the file system'
      : resolved === path.resolve(home)
        ? 'your home folder'
        : SYSTEM_FOLDERS.has(resolved) || SYSTEM_TREES.some((tree) => resolved === tree || resolved.startsWith(`${tree}/`))
          ? 'a system folder'
          : undefined;
  if (what === undefined) return undefined;
  return (
    `The workspace would be ${resolved}, ${what}: no --workspace and no config file named one, so it is the current ` +
    `directory (an MCP client may start servers in / or ignore "cwd"). Pass --workspace with your project's absolute path ` +
    `(e.g. toolwright serve --workspace /path/to/project -p /path/to/project/tsconfig.json), or set workspace.root in toolwright.config.json.`
  );
}
