import fs from 'node:fs';
import { bwrapArguments } from './bwrap-arguments.js';
import { joinGroupCommand, type CommandGroup } from './control-groups.js';
import type { SandboxSupport } from './probe.js';
import { limitsPrelude, withoutCoreFiles } from './resource-limits.js';
import { sandboxAssets } from './sandbox-assets.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { openWorkspace } from './workspace-identity.js';

/** A program and its arguments, ready for `child_process.spawn`. */
export interface Launch {
  file: string;
  args: string[];
  /**
   * Bytes to write to the program's descriptor 4 and then close: bubblewrap's options, read with
   * `--args 4` — a plan covering thousands of paths would pass the kernel's limit on arguments
   * (E2BIG), and arguments are what `/proc/<pid>/cmdline` shows everyone inside.
   */
  input?: Buffer;
  /**
   * Open descriptors the program gets from descriptor 5 on (the workspace, for bubblewrap's `--bind-fd`; the
   * seccomp filter, for `--seccomp`):
   * pass them with `launchStdio` and close them with `closeLaunchDescriptors` once the program is started.
   */
  descriptors?: number[];
  /**
   * Nothing the program starts outlives it: it is bubblewrap, whose sandbox has a PID namespace of its own, and the
   * kernel kills what is left in it before bubblewrap learns that the sandbox's first process ended. No process
   * outside is left to look for once it has exited.
   */
  contained?: boolean;
}

/** The `stdio` option of `spawn` for a launch: the caller's first descriptors (0–3), then its input's and its descriptors. */
export function launchStdio(launch: Launch, first: readonly ('pipe' | 'ignore' | 'inherit')[]): ('pipe' | 'ignore' | 'inherit' | number)[] {
  const descriptors = launch.descriptors ?? [];
  if (!launch.input && descriptors.length === 0) return [...first];
  return [...first, launch.input ? 'pipe' : 'ignore', ...descriptors];
}

/** Closes the launch's descriptors in the host (the started program holds its own copies), once. */
export function closeLaunchDescriptors(launch: Launch): void {
  for (const fd of launch.descriptors?.splice(0) ?? []) {
    try {
      fs.closeSync(fd);
    } catch {
      // closed already
    }
  }
}

/**
 * How to start `argv` inside the sandbox: bubblewrap with the policy's mounts, then `argv`, which
 * must begin by applying the resource limits — a bash script whose first line is
 * `sandboxLimitsPrelude(support, policy)` (the shell's commands are bash scripts already, so this
 * costs no second bash start). Open descriptors (pipes beyond stdio) pass through. With `group`
 * (`makeCommandGroup`), bubblewrap starts inside that control group, so the kernel keeps the
 * process and memory limits for everything the command runs together.
 */
export function sandboxedCommand(
  support: Extract<SandboxSupport, { available: true }>,
  policy: SandboxPolicy,
  argv: readonly string[],
  group?: CommandGroup,
): Launch {
  // The workspace is checked to be the folder the tools were set up on, reached by its own name, and
  // (where bubblewrap can) mounted from the descriptor checked: nothing renamed meanwhile takes its place.
  const workspace = openWorkspace(policy.workspace, policy.workspaceIdentity);
  const descriptors = support.features.bindFd ? [workspace] : [];
  if (!support.features.bindFd) fs.closeSync(workspace);
  try {
    const assets = sandboxAssets(policy.home);
    const workspaceDescriptor = support.features.bindFd ? FIRST_DESCRIPTOR : undefined;
    // The filter is read by bubblewrap from a descriptor, after the workspace's.
    let seccompDescriptor: number | undefined;
    if (support.features.seccomp && assets.seccomp) {
      seccompDescriptor = FIRST_DESCRIPTOR + descriptors.length;
      descriptors.push(fs.openSync(assets.seccomp, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
    }
    const options = bwrapArguments(policy, assets, support.features, workspaceDescriptor, seccompDescriptor);
    const input = Buffer.from(options.map((option) => `${option}\0`).join(''));
    const args = ['--args', '4', '--', ...argv];
    const bwrap = withoutCoreFiles(support.path, args) ?? { file: support.path, args };
    return { ...(group ? joinGroupCommand(group, bwrap.file, bwrap.args) : bwrap), input, descriptors, contained: true };
  } catch (error) {
    for (const fd of descriptors) fs.closeSync(fd);
    throw error;
  }
}

/** Where the first of `Launch.descriptors` lies in bubblewrap (the workspace's, where it is passed). */
const FIRST_DESCRIPTOR = 5;

/** The bash line that sets the policy's resource limits (see `limitsPrelude`), to begin the sandboxed script with. */
export function sandboxLimitsPrelude(support: Extract<SandboxSupport, { available: true }>, policy: SandboxPolicy): string {
  const coreLimited = withoutCoreFiles(support.path, []) !== undefined;
  return `${CLOSE_INHERITED}${OTHERS_CANNOT_WRITE}${limitsPrelude(policy.limits, support.features.userNamespace ? 0 : runningProcessesOfUser(), undefined, coreLimited)}`;
}

/**
 * Closes every descriptor above 3 the shell was given: one the host inherited without close-on-exec (from
 * an editor, a CI runner, a service manager) passes through Node and bubblewrap, and a directory's would
 * reach the host's files through `/proc/self/fd/N/...`. 0-2 are the streams, 3 the host's gate or control
 * channel (bubblewrap has closed its options' descriptor 4). Globbing is on only for the loop (the shells run with -f).
 */
const CLOSE_INHERITED =
  'set +f; for __tw_fd in /proc/self/fd/*; do __tw_fd=${__tw_fd##*/}; [ "$__tw_fd" -gt 3 ] 2>/dev/null && eval "exec $__tw_fd<&-"; done; set -f; unset __tw_fd; ';

/**
 * Whatever mask the host runs with, files and folders the command makes are not writable by other users (the seccomp
 * filter refuses a mask that would let them be; see `seccomp-filter.ts`).
 */
const OTHERS_CANNOT_WRITE = 'umask go-w; ';

/** `argv` as it is, for commands run outside the sandbox. */
export function unsandboxedCommand(argv: readonly string[]): Launch {
  const [file, ...args] = argv;
  if (file === undefined) throw new TypeError('a command needs a program');
  return { file, args };
}

let counted: { at: number; count: number | undefined } | undefined;

/**
 * How many processes the running user has (without a user namespace, RLIMIT_NPROC counts them
 * all, so the limit is set above them), counted at most once a second; undefined for root, whom the kernel does not limit.
 */
function runningProcessesOfUser(): number | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  if (uid === 0) return undefined;
  const now = Date.now();
  if (counted && now - counted.at < 1000) return counted.count;
  let count = 0;
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (fs.statSync(`/proc/${entry}`).uid === uid) count++;
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    counted = { at: now, count: undefined };
    return undefined;
  }
  counted = { at: now, count };
  return count;
}
