import fs from 'node:fs';

/**
 * The system's program directories, visible read-only. Merged-/usr systems link `/bin`, `/lib`, ...
 * into `/usr` (the links are recreated); others have real directories (bound as they are).
 */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What programs read from `/etc`, and nothing else: no `shadow`, `ssh/`, `sudoers`, cron tables,
 * service credentials or package-manager tokens (`npmrc`, `pip.conf`). `passwd` and `group` are
 * replaced by short files naming only root, the running user and nobody (see `sandboxAssets`).
 */
const ETC_ENTRIES = [
  'alternatives', // Debian's program links (/usr/bin/awk -> /etc/alternatives/awk)
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'locale.alias',
  'locale.conf',
  'nsswitch.conf',
  'host.conf',
  'hosts',
  'mime.types',
  'magic',
  'magic.mime',
  'protocols',
  'services',
  'inputrc',
  'terminfo',
  'os-release',
  'debian_version',
  'shells',
];

/** Only needed, and only bound, when the command may use the network. */
const NETWORK_ETC_ENTRIES = ['resolv.conf', 'gai.conf', 'ssl', 'ca-certificates', 'ca-certificates.conf', 'pki', 'crypto-policies'];

export type SystemMount = { kind: 'ro-bind'; path: string } | { kind: 'symlink'; path: string; target: string };

/** The system directories and `/etc` entries present on this machine, as mounts in order. */
export function systemMounts(network: boolean): SystemMount[] {
  const mounts: SystemMount[] = [];
  for (const dir of SYSTEM_DIRECTORIES) {
    const stat = lstat(dir);
    if (!stat) continue;
    if (stat.isSymbolicLink()) mounts.push({ kind: 'symlink', path: dir, target: fs.readlinkSync(dir) });
    else if (stat.isDirectory()) mounts.push({ kind: 'ro-bind', path: dir });
  }
  for (const entry of [...ETC_ENTRIES, ...(network ? NETWORK_ETC_ENTRIES : [])]) {
    const full = `/etc/${entry}`;
    const stat = lstat(full);
    if (!stat) continue;
    // A link in /etc (localtime -> /usr/share/zoneinfo/...) is recreated, not followed: its target
    // is either visible already or stays out of sight.
    if (stat.isSymbolicLink()) mounts.push({ kind: 'symlink', path: full, target: fs.readlinkSync(full) });
    else mounts.push({ kind: 'ro-bind', path: full });
  }
  return mounts;
}

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}
