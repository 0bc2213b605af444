import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyEtcEntries, ETC_ENTRIES, NETWORK_ETC_ENTRIES } from './system-view.js';

/** Files of this process that sandboxes mount read-only in place of the host's. */
export interface SandboxAssets {
  /** The sandbox's `/etc`: copies of what programs read, and a `passwd`/`group` naming only root, the user and nobody. */
  etc: string;
  /** The same with name resolution and public certificates, for commands that may use the network. */
  etcWithNetwork: string;
  /** An empty file, mounted over a hidden file. */
  empty: string;
}

let assets: SandboxAssets | undefined;

/**
 * Made once per process in a private directory (mode 0700), removed when the process exits. Never
 * changed afterwards: running sandboxes have it mounted.
 */
export function sandboxAssets(home: string): SandboxAssets {
  if (assets && fs.existsSync(assets.empty)) return assets;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-sandbox-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const made: SandboxAssets = { etc: path.join(dir, 'etc'), etcWithNetwork: path.join(dir, 'etc-network'), empty: path.join(dir, 'empty') };
  for (const [etc, entries] of [
    [made.etc, ETC_ENTRIES],
    [made.etcWithNetwork, [...ETC_ENTRIES, ...NETWORK_ETC_ENTRIES]],
  ] as const) {
    fs.mkdirSync(etc, { recursive: true });
    copyEtcEntries(etc, entries);
    writeAccounts(etc, home);
  }
  fs.writeFileSync(made.empty, '', { mode: 0o444 });
  return (assets = made);
}

function writeAccounts(etc: string, home: string): void {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const gid = typeof process.getgid === 'function' ? process.getgid() : 0;
  const user = os.userInfo().username.replace(/[^A-Za-z0-9._-]/g, '') || 'user';
  const users = ['root:x:0:0:root:/root:/bin/bash'];
  if (uid !== 0) users.push(`${user}:x:${uid}:${gid}:${user}:${home}:/bin/bash`);
  users.push('nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin');
  const groups = ['root:x:0:'];
  if (gid !== 0) groups.push(`${user}:x:${gid}:`);
  groups.push('nogroup:x:65534:');
  fs.writeFileSync(path.join(etc, 'passwd'), `${users.join('\n')}\n`, { mode: 0o644 });
  fs.writeFileSync(path.join(etc, 'group'), `${groups.join('\n')}\n`, { mode: 0o644 });
}
