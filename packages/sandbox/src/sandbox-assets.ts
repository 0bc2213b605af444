import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onHostExit } from './host-exit.js';
import { sharedSubdirectory } from './shared-directory.js';
import { seccompFilter } from './seccomp-filter.js';
import { copyEtcEntries, ETC_ENTRIES, NETWORK_ETC_ENTRIES } from './system-view.js';

/** Files of this process that sandboxes mount read-only in place of the host's. */
export interface SandboxAssets {
  /** The sandbox's `/etc`: copies of what programs read, and a `passwd`/`group` naming only root, the user and nobody. */
  etc: EtcView;
  /** The same with name resolution and public certificates, for commands that may use the network (made when first asked for). */
  readonly etcWithNetwork: EtcView;
  /** An empty file, mounted over a hidden file. */
  empty: string;
  /** The seccomp filter (`seccomp-filter.ts`) as bubblewrap reads it, where one is written for this architecture. */
  seccomp?: string;
}

/** Removes the assets of processes that ended without removing them (killed). */
function removeStale(folder: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = /^(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || fs.existsSync(`/proc/${owner}`)) continue;
    fs.rmSync(path.join(folder, name), { recursive: true, force: true });
  }
}

/** A sandbox's `/etc`: a folder of copies, and the host's `/etc` folders to mount in it read-only (`alternatives`). */
export interface EtcView {
  dir: string;
  /** Relative to `/etc`; each has an empty mount point in `dir`. */
  folders: readonly string[];
}

/** Per home directory named in `passwd` (a process normally has one). */
const made = new Map<string, SandboxAssets>();
/** Directories to remove when the process exits. */
const directories: string[] = [];

/**
 * Made once per process and home in a private directory (mode 0700), removed when the process exits.
 * Never changed afterwards: running sandboxes have it mounted.
 */
export function sandboxAssets(home: string): SandboxAssets {
  const existing = made.get(home);
  if (existing && fs.existsSync(existing.empty)) return existing;
  // In the user's own folder at a fixed place (`shared-directory.ts`), never in TMPDIR, which may lie in a workspace:
  // bubblewrap mounts these by path, and a command that could swap /etc for a link would be shown the host's.
  const folder = sharedSubdirectory('assets');
  if (directories.length === 0) {
    removeStale(folder);
    onHostExit(() => directories.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  }
  const dir = fs.mkdtempSync(path.join(folder, `${process.pid}-`));
  directories.push(dir);
  let withNetwork: EtcView | undefined;
  const assets: SandboxAssets = {
    etc: makeEtc(path.join(dir, 'etc'), ETC_ENTRIES, home),
    // Most commands have no network: its /etc is made for the first that has.
    get etcWithNetwork() {
      return (withNetwork ??= makeEtc(path.join(dir, 'etc-network'), [...ETC_ENTRIES, ...NETWORK_ETC_ENTRIES], home));
    },
    empty: path.join(dir, 'empty'),
  };
  const filter = seccompFilter();
  if (filter) {
    assets.seccomp = path.join(dir, 'seccomp.bpf');
    fs.writeFileSync(assets.seccomp, filter, { mode: 0o444 });
  }
  // Offline, names resolve to loopback only, and the host's name stays out of sight.
  fs.rmSync(path.join(assets.etc.dir, 'hosts'), { force: true });
  fs.writeFileSync(path.join(assets.etc.dir, 'hosts'), '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\ttoolwright-sandbox\n', {
    mode: 0o644,
  });
  fs.writeFileSync(assets.empty, '', { mode: 0o444 });
  made.set(home, assets);
  return assets;
}

function makeEtc(etc: string, entries: readonly string[], home: string): EtcView {
  fs.mkdirSync(etc, { recursive: true });
  const folders = copyEtcEntries(etc, entries);
  writeAccounts(etc, home);
  return { dir: etc, folders };
}

function writeAccounts(etc: string, home: string): void {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const gid = typeof process.getgid === 'function' ? process.getgid() : 0;
  const user = userName().replace(/[^A-Za-z0-9._-]/g, '') || 'user';
  const users = ['root:x:0:0:root:/root:/bin/bash'];
  if (uid !== 0) users.push(`${user}:x:${uid}:${gid}:${user}:${home}:/bin/bash`);
  users.push('nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin');
  const groups = ['root:x:0:'];
  if (gid !== 0) groups.push(`${user}:x:${gid}:`);
  groups.push('nogroup:x:65534:');
  fs.writeFileSync(path.join(etc, 'passwd'), `${users.join('\n')}\n`, { mode: 0o644 });
  fs.writeFileSync(path.join(etc, 'group'), `${groups.join('\n')}\n`, { mode: 0o644 });
}

/** The running user's name; a container's user may have no `passwd` entry (then `$USER`, else "user"). */
function userName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'user';
  }
}
