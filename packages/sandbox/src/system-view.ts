import fs from 'node:fs';
import path from 'node:path';

/**
 * The system's program directories, visible read-only. Merged-/usr systems link `/bin`, `/lib`, ...
 * into `/usr` (the links are recreated); others have real directories (bound as they are).
 */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What programs read from `/etc`, and nothing else: no `shadow`, `ssh/`, `sudoers`, cron tables,
 * service credentials or package-manager tokens (`npmrc`, `pip.conf`). `passwd` and `group` are
 * replaced by short files naming only root, the running user and nobody.
 */
export const ETC_ENTRIES = [
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

/** Only there when the command may use the network: name resolution and the public certificates (never `ssl/private`). */
export const NETWORK_ETC_ENTRIES = [
  'resolv.conf',
  'gai.conf',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ca-certificates',
  'ca-certificates.conf',
  'pki/tls/certs',
  'pki/ca-trust/extracted',
];

/** Largest `/etc` file copied into the view (a bigger one is left out). */
const MAX_ETC_FILE = 8 * 1024 * 1024;

export type SystemMount = { kind: 'ro-bind'; path: string } | { kind: 'symlink'; path: string; target: string };

/** The system directories present on this machine, as mounts in order. */
export function systemMounts(): SystemMount[] {
  const mounts: SystemMount[] = [];
  for (const dir of SYSTEM_DIRECTORIES) {
    const stat = lstat(dir);
    if (!stat) continue;
    if (stat.isSymbolicLink()) mounts.push({ kind: 'symlink', path: dir, target: fs.readlinkSync(dir) });
    else if (stat.isDirectory()) mounts.push({ kind: 'ro-bind', path: dir });
  }
  return mounts;
}

/**
 * Fills `dir` with copies of the chosen `/etc` files, so the sandbox mounts one directory as `/etc` instead of one
 * mount per entry. A link within `/etc` is recreated as a link (never followed); one leading out of it
 * (`resolv.conf` into `/run/systemd/resolve`, not mounted) is copied as the file it leads to. A folder
 * (`alternatives`, `ssl/certs`: hundreds of links, ~100 ms each to copy at a process's first sandbox) is left as an
 * empty mount point, and returned, for the host's folder to be mounted there read-only.
 * @returns the folders to mount from `etc` (entries as given).
 */
export function copyEtcEntries(dir: string, entries: readonly string[], etc = '/etc'): string[] {
  const folders: string[] = [];
  for (const entry of entries) {
    const source = path.join(etc, entry);
    const stat = lstat(source);
    if (!stat || (stat.isFile() && stat.size > MAX_ETC_FILE)) continue;
    const target = path.join(dir, entry);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      if (stat.isSymbolicLink()) copyLink(source, target, etc);
      else if (stat.isDirectory()) {
        fs.mkdirSync(target, { recursive: true });
        folders.push(entry);
      } else if (stat.isFile()) fs.copyFileSync(source, target);
    } catch {
      // Unreadable (a root-only file seen by another user): left out, as programs without it expect.
    }
  }
  return folders;
}

function copyLink(source: string, target: string, etc: string): void {
  const destination = fs.readlinkSync(source);
  const resolved = path.resolve(path.dirname(source), destination);
  if (resolved === etc || resolved.startsWith(`${etc}/`)) return fs.symlinkSync(destination, target);
  const real = fs.statSync(source); // follows the link
  if (real.isFile() && real.size <= MAX_ETC_FILE) fs.copyFileSync(source, target);
}

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}
