import fs from 'node:fs';
import path from 'node:path';
import type { SandboxAssets } from './sandbox-assets.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { systemMounts } from './system-view.js';

/** What bubblewrap on this machine supports, as the probe found it. */
export interface BubblewrapFeatures {
  /** `--disable-userns` (0.8.0+): the command cannot make a user namespace of its own. */
  disableUserns: boolean;
}

/**
 * The bubblewrap arguments for a policy, before `--` and the command. Mounts apply in order, so a
 * later one covers an earlier one: system directories, the prepared `/etc`, `/proc`, `/dev` and a private
 * `/tmp` first; then readable extra directories, the home, the workspace (read-write), its
 * read-only paths, and last its hidden paths.
 *
 * Every namespace is new (no network unless the policy allows it; a PID namespace whose first
 * process takes every other one with it), and every capability is dropped: bubblewrap started by
 * root keeps them otherwise, and with CAP_SYS_ADMIN a command could remount a read-only bind
 * writable. `--die-with-parent` ends the sandbox with the host.
 */
export function bwrapArguments(policy: SandboxPolicy, assets: SandboxAssets, features: BubblewrapFeatures): string[] {
  const args: string[] = [];
  for (const mount of systemMounts()) {
    if (mount.kind === 'symlink') args.push('--symlink', mount.target, mount.path);
    else args.push('--ro-bind', mount.path, mount.path);
  }
  args.push('--ro-bind', policy.network ? assets.etcWithNetwork : assets.etc, '/etc');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/var', '--symlink', '../tmp', '/var/tmp');
  for (const dir of byDepth(policy.readable)) args.push('--ro-bind-try', dir, dir);
  args.push('--dir', policy.home);
  args.push('--bind', policy.workspace, policy.workspace);
  const inside = (entry: string) => isWithin(policy.workspace, entry) && !isLink(entry);
  for (const entry of byDepth(policy.readOnly.filter(inside))) args.push('--ro-bind', entry, entry);
  for (const entry of byDepth(policy.hidden.filter(inside))) {
    if (isDirectory(entry)) args.push('--tmpfs', entry, '--remount-ro', entry);
    else args.push('--ro-bind', assets.empty, entry);
  }
  args.push('--chdir', policy.cwd, '--unshare-all');
  if (policy.network) args.push('--share-net');
  if (features.disableUserns) args.push('--unshare-user', '--disable-userns');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--hostname', 'toolwright-sandbox');
  return args;
}

/** Parents before children, so a child's mount is not covered by its parent's. */
function byDepth(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** Whether `entry` lies strictly inside `root`, by path segments. */
function isWithin(root: string, entry: string): boolean {
  const relative = path.relative(root, entry);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** A mount on a link would follow it: links are skipped (their targets are listed on their own). */
function isLink(entry: string): boolean {
  try {
    return fs.lstatSync(entry).isSymbolicLink();
  } catch {
    return true;
  }
}

function isDirectory(entry: string): boolean {
  try {
    return fs.lstatSync(entry).isDirectory();
  } catch {
    return false;
  }
}
