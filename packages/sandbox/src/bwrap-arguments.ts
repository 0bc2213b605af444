import fs from 'node:fs';
import path from 'node:path';
import type { SandboxAssets } from './sandbox-assets.js';
import { isWithin } from './is-within.js';
import { readableProblem, type SandboxPolicy } from './sandbox-policy.js';
import { systemMounts, type SystemMount } from './system-view.js';

/** What bubblewrap on this machine supports, as the probe found it. */
export interface BubblewrapFeatures {
  /** `--disable-userns` (0.8.0+): the command cannot make a user namespace of its own. */
  disableUserns: boolean;
  /**
   * The sandbox has a user namespace of its own (unprivileged bubblewrap): the kernel then counts the
   * process limit inside it alone. A setuid bubblewrap makes none, and the user's processes outside count too.
   */
  userNamespace: boolean;
  /** `--bind-fd` (0.5.0+): the workspace is mounted from a descriptor opened and checked by the host (see `openWorkspace`). */
  bindFd?: boolean;
  /** The kernel loads the seccomp filter (`seccomp-filter.ts`) bubblewrap is given with `--seccomp`. */
  seccomp?: boolean;
}

/**
 * What `/proc` shows of the host beyond the sandbox's processes that anyone may read but root reads in full
 * (its kernel's addresses, its keys, its timers): empty.
 */
const PROC_MASKED = [
  '/proc/kcore',
  '/proc/kmsg',
  '/proc/kallsyms',
  '/proc/keys',
  '/proc/key-users',
  '/proc/timer_list',
  '/proc/sched_debug',
  '/proc/latency_stats',
];

let procMasked: string[] | undefined;

/**
 * The `/proc` files to empty: those above, and every file of `/proc` itself that the kernel lets only root
 * read (physical pages, slabs, vmalloc areas, ...: mode without the read bit for others) — a command runs as
 * root only because the host does, so it sees what any user would. Read from this kernel's own listing, once.
 */
export function procMaskedFiles(): string[] {
  if (procMasked) return procMasked;
  const found = new Set(PROC_MASKED.filter((entry) => fs.existsSync(entry)));
  try {
    for (const name of fs.readdirSync('/proc')) {
      if (/^\d+$/.test(name)) continue;
      try {
        const status = fs.lstatSync(`/proc/${name}`);
        if (status.isFile() && (status.mode & 0o004) === 0) found.add(`/proc/${name}`);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no /proc here: bubblewrap makes one, with nothing to empty that this host shows
  }
  return (procMasked = [...found].sort());
}

/**
 * The bubblewrap arguments for a policy, before `--` and the command. Mounts apply in order, so a
 * later one covers an earlier one: system directories, the prepared `/etc`, `/proc` (read-only as a whole,
 * its views of the host empty), `/dev` (read-only but for its devices and a `/dev/shm` of at most
 * `memoryBytes`) and a private `/tmp` (as large) first; then readable extra directories (never one that would cover or show those: see
 * `readableProblem`), the home, the workspace (read-write) and links to it at its other spellings,
 * the folders on the way to its covered paths (bound onto themselves), its read-only paths, and last
 * its hidden paths; then the sandbox's own root is made read-only.
 *
 * Every namespace is new (no network unless the policy allows it; a PID namespace whose first
 * process takes every other one with it), and every capability is dropped: bubblewrap started by
 * root keeps them otherwise, and with CAP_SYS_ADMIN a command could remount a read-only bind
 * writable. `--die-with-parent` ends the sandbox with the host.
 */
export function bwrapArguments(
  policy: SandboxPolicy,
  assets: SandboxAssets,
  features: BubblewrapFeatures,
  workspaceDescriptor?: number,
  seccompDescriptor?: number,
): string[] {
  const args: string[] = [];
  const system = systemMounts();
  for (const mount of system) {
    if (mount.kind === 'symlink') args.push('--symlink', mount.target, mount.path);
    else args.push('--ro-bind', mount.path, mount.path);
  }
  const etc = policy.network ? assets.etcWithNetwork : assets.etc;
  args.push('--ro-bind', etc.dir, '/etc');
  for (const folder of etc.folders) args.push('--ro-bind', path.join('/etc', folder), path.join('/etc', folder));
  const size = String(policy.limits.memoryBytes);
  if (!policy.reader) {
    args.push('--proc', '/proc');
    for (const entry of procMaskedFiles()) args.push('--ro-bind', '/dev/null', entry);
    // The whole kernel interface read-only, not a list of what is known to be dangerous: a command run by root is
    // root to the kernel's permission checks even with every capability dropped, and `/proc/sys/kernel/core_pattern`
    // names a program the kernel runs as root on the host (`|/workspace/x.sh`), `/proc/sysrq-trigger` reboots it —
    // whatever a kernel adds under /proc is covered too. Writes through `/proc/self/fd` reach the file itself, not /proc.
    args.push('--remount-ro', '/proc');
    args.push('--dev', '/dev', '--size', size, '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  }
  args.push('--size', size, '--tmpfs', '/tmp', '--dir', '/var', '--symlink', '../tmp', '/var/tmp');
  for (const dir of byDepth(policy.readable)) {
    const problem = readableProblem(dir, policy.workspace);
    if (problem) throw new Error(`The sandbox cannot make '${dir}' readable: ${problem}.`);
    args.push('--ro-bind-try', dir, dir);
  }
  args.push('--dir', policy.home);
  // From the descriptor the host opened and checked, where it has one: a folder renamed into the workspace's
  // place after the check is not what is mounted.
  // A reader's (or a read-only) workspace is read-only as a whole: nothing in it needs keeping read-only on its own,
  // and no folder on the way to a covered path is bound from the host (nothing inside can rename it).
  const readOnlyWorkspace = policy.reader === true || policy.workspaceReadOnly === true;
  const bind = readOnlyWorkspace ? '--ro-bind' : '--bind';
  if (workspaceDescriptor !== undefined) args.push(`${bind}-fd`, String(workspaceDescriptor), policy.workspace);
  else args.push(bind, policy.workspace, policy.workspace);
  for (const spelling of policy.reader ? [] : (policy.workspaceSpellings ?? [])) {
    if (spelling !== policy.workspace && mayLinkAt(spelling, policy, system)) args.push('--symlink', policy.workspace, spelling);
  }
  const readOnly = readOnlyWorkspace ? [] : byDepth(policy.readOnly.flatMap((entry) => protectedEntry(entry, policy.workspace)));
  const hidden = byDepth(policy.hidden.filter((entry) => isInside(policy.workspace, entry) && !isLink(entry)));
  // Each folder on the way to a covered path is bound onto itself: a mount point cannot be renamed or
  // replaced, so `mv conf conf2` cannot carry `conf/prod.key` out from under `conf/*.key` for the next command.
  // bubblewrap mounts by name and follows links (the source from the host's root): a folder on the way that is a
  // link would mount what it leads to, read-write (the planner refuses such plans; this is the last check).
  // (A read-only workspace has none to bind: nothing in it can be renamed, and a `--bind` would make a folder writable.)
  const ancestors = readOnlyWorkspace ? [] : byDepth(ancestorsWithin(policy.workspace, [...readOnly, ...hidden]));
  for (const entry of ancestors) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      // gone: bubblewrap's mount fails, and says so
    }
    if (stat && !stat.isDirectory())
      throw new Error(`'${entry}', on the way to a path the sandbox covers, is no longer a folder (a link?); the sandbox was not made`);
  }
  for (const entry of ancestors) args.push('--bind', entry, entry);
  for (const entry of readOnly) args.push('--ro-bind', entry, entry);
  for (const entry of hidden) {
    if (isDirectory(entry)) args.push('--tmpfs', entry, '--remount-ro', entry);
    else args.push('--ro-bind', assets.empty, entry);
  }
  // The sandbox's own root (a tmpfs holding the mount points) takes no files: only its mounts are writable.
  args.push('--remount-ro', '/', '--chdir', policy.cwd, '--unshare-all');
  if (policy.network) args.push('--share-net');
  if (features.disableUserns) args.push('--unshare-user', '--disable-userns');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--hostname', 'toolwright-sandbox');
  // What the command may make where it can write (no set-ID or world-writable files): see `seccomp-filter.ts`.
  if (seccompDescriptor !== undefined) args.push('--seccomp', String(seccompDescriptor));
  if (args.length > BWRAP_MAX_OPTIONS)
    throw new Error(
      `it would cover ${readOnly.length + hidden.length} paths one by one, more than bubblewrap takes (${BWRAP_MAX_ARGUMENTS} arguments in all): narrow the deny rules, keep such files in a folder a rule hides whole (e.g. "secrets/**"), or remove them`,
    );
  return args;
}

/** bubblewrap stops at this many arguments, options and command together (its MAX_ARGS). */
const BWRAP_MAX_ARGUMENTS = 9000;
/** Room left for the command after the options (bash, its flags, the script, the command line). */
const BWRAP_MAX_OPTIONS = BWRAP_MAX_ARGUMENTS - 64;

/** The folders strictly between the workspace and each entry (`conf` for `conf/prod.key`). */
function ancestorsWithin(workspace: string, entries: readonly string[]): string[] {
  const found = new Set<string>();
  for (const entry of entries) for (let dir = path.dirname(entry); isInside(workspace, dir) && !found.has(dir); dir = path.dirname(dir)) found.add(dir);
  return [...found];
}

/** Parents before children, so a child's mount is not covered by its parent's. */
function byDepth(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** Strictly inside `root` (a mount on the workspace itself would undo its read-write bind). */
function isInside(root: string, entry: string): boolean {
  return entry !== root && isWithin(root, entry);
}

/**
 * What to mount read-only for a protected entry: the entry itself, or, for a link (a mount would
 * follow it), the file or directory it leads to when that lies in the workspace — `.env` linked to
 * `config/prod.env` keeps that file read-only. A link leading outside needs nothing: outside is not writable.
 */
function protectedEntry(entry: string, workspace: string): string[] {
  if (!isInside(workspace, entry)) return [];
  if (!isLink(entry)) return [entry];
  try {
    const target = fs.realpathSync(entry);
    return isInside(workspace, target) ? [target] : [];
  } catch {
    return [];
  }
}

/** Another spelling of the workspace can be made a link where nothing mounted read-only holds it. */
function mayLinkAt(spelling: string, policy: SandboxPolicy, system: readonly SystemMount[]): boolean {
  if (!path.isAbsolute(spelling) || isWithin(policy.workspace, spelling) || isWithin(spelling, policy.workspace)) return false;
  const mounted = [...system.map((mount) => mount.path), '/etc', '/proc', '/dev', ...policy.readable];
  return !mounted.some((dir) => isWithin(dir, spelling));
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
