import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArguments, procMaskedFiles } from './bwrap-arguments.js';
import { DEFAULT_LIMITS } from './resource-limits.js';
import type { SandboxPolicy } from './sandbox-policy.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bwrap-args-')));
const ws = path.join(base, 'ws');
for (const dir of ['.git', '..git', 'secrets', 'keys', 'config']) fs.mkdirSync(path.join(ws, dir), { recursive: true });
for (const file of ['.env', 'keys/a.pem', 'config/prod.env']) fs.writeFileSync(path.join(ws, file), 'x');
fs.symlinkSync('config/prod.env', path.join(ws, 'linked.env'));
fs.symlinkSync(base, path.join(ws, 'out'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const assets = {
  etc: { dir: '/assets/etc', folders: ['alternatives'] },
  etcWithNetwork: { dir: '/assets/etc-net', folders: ['alternatives', 'ssl/certs'] },
  empty: '/assets/empty',
};
const features = { disableUserns: true, userNamespace: true };
function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return { workspace: ws, readOnly: [], hidden: [], readable: [], network: false, home: '/tmp/home', cwd: ws, limits: DEFAULT_LIMITS, ...extra };
}
/** The arguments as `option operands...` lines, for reading order. */
function mounts(args: string[]): string[] {
  const lines: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('--')) lines.push(arg);
    else lines[lines.length - 1] += ` ${arg}`;
  }
  return lines;
}

describe(bwrapArguments, () => {
  it('mounts the workspace, then its read-only paths, then its hidden ones, parents first', () => {
    const lines = mounts(
      bwrapArguments(
        policy({
          readOnly: [path.join(ws, 'keys'), path.join(ws, '.git'), path.join(ws, '..git'), path.join(ws, 'linked.env'), path.join(ws, 'out'), base],
          hidden: [path.join(ws, 'keys', 'a.pem'), path.join(ws, 'secrets')],
        }),
        assets,
        features,
      ),
    );
    const at = (line: string) => lines.indexOf(line);
    expect(at(`--bind ${ws} ${ws}`)).toBeGreaterThan(-1);
    const readOnly = lines.filter((line) => line.startsWith('--ro-bind ') && line.includes(ws));
    // '..git' is a name inside; the link keeps what it leads to read-only; a link out and the workspace's parent are not mounted.
    expect(readOnly).toEqual([
      `--ro-bind ${ws}/..git ${ws}/..git`,
      `--ro-bind ${ws}/.git ${ws}/.git`,
      `--ro-bind ${ws}/keys ${ws}/keys`,
      `--ro-bind ${ws}/config/prod.env ${ws}/config/prod.env`,
      `--ro-bind /assets/empty ${ws}/keys/a.pem`,
    ]);
    expect(at(`--ro-bind ${ws}/keys ${ws}/keys`)).toBeGreaterThan(at(`--bind ${ws} ${ws}`));
    // The folders on the way are bound onto themselves first (a mount point cannot be renamed away).
    expect(lines.filter((line) => line.startsWith('--bind '))).toEqual([
      `--bind ${ws} ${ws}`,
      `--bind ${ws}/config ${ws}/config`,
      `--bind ${ws}/keys ${ws}/keys`,
    ]);
    expect(at(`--bind ${ws}/config ${ws}/config`)).toBeLessThan(at(`--ro-bind ${ws}/config/prod.env ${ws}/config/prod.env`));
    expect(at(`--ro-bind /assets/empty ${ws}/keys/a.pem`)).toBeGreaterThan(at(`--ro-bind ${ws}/keys ${ws}/keys`));
    expect(at(`--tmpfs ${ws}/secrets`)).toBeGreaterThan(at(`--ro-bind ${ws}/keys ${ws}/keys`));
    expect(lines.at(-1)).toBe('--hostname toolwright-sandbox');
    expect(lines).toEqual(expect.arrayContaining(['--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop ALL', '--die-with-parent']));
  });

  it("mounts the view's /etc, then the host's /etc folders it names read-only over their mount points", () => {
    const offline = mounts(bwrapArguments(policy(), assets, features));
    expect(offline.indexOf('--ro-bind /etc/alternatives /etc/alternatives')).toBe(offline.indexOf('--ro-bind /assets/etc /etc') + 1);
    expect(offline).not.toContain('--ro-bind /etc/ssl/certs /etc/ssl/certs');
    const online = mounts(bwrapArguments(policy({ network: true }), assets, features));
    expect(online).toEqual(expect.arrayContaining(['--ro-bind /assets/etc-net /etc', '--ro-bind /etc/ssl/certs /etc/ssl/certs']));
  });

  it('mounts the workspace from the descriptor the host opened and checked, where one is given, in the same place', () => {
    const byName = mounts(bwrapArguments(policy(), assets, features));
    const byDescriptor = mounts(bwrapArguments(policy(), assets, { ...features, bindFd: true }, 5));
    expect(byDescriptor).toContain(`--bind-fd 5 ${ws}`);
    expect(byDescriptor).not.toContain(`--bind ${ws} ${ws}`);
    expect(byDescriptor.indexOf(`--bind-fd 5 ${ws}`)).toBe(byName.indexOf(`--bind ${ws} ${ws}`));
  });

  it("covers the kernel's settings and empties its views of the host, right after /proc", () => {
    const lines = mounts(bwrapArguments(policy(), assets, features));
    const proc = lines.indexOf('--proc /proc');
    const masked = procMaskedFiles();
    expect(lines.slice(proc + 1, proc + 1 + masked.length)).toEqual(masked.map((entry) => `--ro-bind /dev/null ${entry}`));
    expect(lines[proc + 1 + masked.length]).toBe('--remount-ro /proc');
    if (fs.existsSync('/proc/kcore')) expect(masked).toContain('/proc/kcore');
    // Every file of /proc that only root may read is emptied, found from the kernel's own listing.
    for (const name of fs.readdirSync('/proc')) {
      const status = /^\d+$/.test(name) ? undefined : fs.lstatSync(`/proc/${name}`);
      if (status?.isFile() && (status.mode & 0o004) === 0) expect(masked).toContain(`/proc/${name}`);
    }
    // /dev/shm and /tmp hold at most memoryBytes; /dev itself and the sandbox's root take no files.
    for (const tmpfs of ['--tmpfs /dev/shm', '--tmpfs /tmp']) expect(lines[lines.indexOf(tmpfs) - 1]).toBe(`--size ${DEFAULT_LIMITS.memoryBytes}`);
    expect(lines.indexOf('--remount-ro /dev')).toBeGreaterThan(lines.indexOf('--tmpfs /dev/shm'));
    expect(lines.indexOf('--remount-ro /')).toBe(lines.indexOf(`--chdir ${ws}`) - 1);
  });

  it('makes no sandbox when a folder on the way to a covered path is a link (bubblewrap would mount what it leads to)', () => {
    const outside = fs.mkdtempSync(path.join(base, 'outside-'));
    fs.mkdirSync(path.join(outside, 'deep'));
    fs.writeFileSync(path.join(outside, 'deep', 'a.key'), 'x');
    fs.symlinkSync(outside, path.join(ws, 'swapped'));
    try {
      for (const covered of [{ hidden: [path.join(ws, 'swapped', 'deep', 'a.key')] }, { readOnly: [path.join(ws, 'swapped', 'deep')] }])
        expect(() => bwrapArguments(policy(covered), assets, features)).toThrow(
          /'.*\/ws\/swapped', on the way to a path the sandbox covers, is no longer a folder/,
        );
    } finally {
      fs.rmSync(path.join(ws, 'swapped'));
    }
  });

  it('refuses a readable directory that would show or cover what the sandbox makes itself', () => {
    for (const dir of ['/etc', '/etc/ssl', '/proc', '/', '/var', base, os.homedir()])
      expect(() => bwrapArguments(policy({ readable: [dir === base ? ws : dir] }), assets, features), dir).toThrow(
        /^The sandbox cannot make '.*' readable: it /,
      );
    expect(mounts(bwrapArguments(policy({ readable: ['/opt/tool'] }), assets, features))).toContain('--ro-bind-try /opt/tool /opt/tool');
  });

  it('links the other spellings of the workspace to it, where nothing read-only holds them', () => {
    const lines = mounts(bwrapArguments(policy({ workspaceSpellings: [ws, '/tmp/ws-link', '/usr/ws-link'] }), assets, features));
    expect(lines).toContain(`--symlink ${ws} /tmp/ws-link`);
    expect(lines.filter((line) => line.includes('/usr/ws-link'))).toEqual([]);
  });
});
