import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Files of this process that sandboxes mount read-only in place of the host's. */
export interface SandboxAssets {
  /** `/etc/passwd` naming only root, the running user and nobody (no other accounts, no homes). */
  passwd: string;
  group: string;
  /** An empty file, mounted over a hidden file. */
  empty: string;
}

let assets: SandboxAssets | undefined;

/** Made once per process in a private directory (mode 0700), removed when the process exits. */
export function sandboxAssets(home: string): SandboxAssets {
  if (assets && fs.existsSync(assets.empty)) return assets;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-sandbox-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const gid = typeof process.getgid === 'function' ? process.getgid() : 0;
  const user = safeName(os.userInfo().username) || 'user';
  const users = [`root:x:0:0:root:/root:/bin/bash`];
  if (uid !== 0) users.push(`${user}:x:${uid}:${gid}:${user}:${home}:/bin/bash`);
  users.push('nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin');
  const groups = ['root:x:0:'];
  if (gid !== 0) groups.push(`${user}:x:${gid}:`);
  groups.push('nogroup:x:65534:');
  const made: SandboxAssets = { passwd: path.join(dir, 'passwd'), group: path.join(dir, 'group'), empty: path.join(dir, 'empty') };
  fs.writeFileSync(made.passwd, `${users.join('\n')}\n`, { mode: 0o644 });
  fs.writeFileSync(made.group, `${groups.join('\n')}\n`, { mode: 0o644 });
  fs.writeFileSync(made.empty, '', { mode: 0o444 });
  return (assets = made);
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '');
}
