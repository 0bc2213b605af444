import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decideSandbox,
  limitsPrelude,
  makeCommandGroup,
  pauseCommands,
  probeSandbox,
  sandboxedCommand,
  sandboxLimitsPrelude,
  unsandboxedCommand,
  type CommandGroup,
  type GroupEvents,
  type Launch,
  type SandboxDecision,
  type SandboxMode,
} from '@toolwright/sandbox';
import { SourceError } from '../source-error.js';
import type { SubprocessLimits } from './subprocess-limits.js';
import { subprocessPolicy, type MountRequest } from './subprocess-mounts.js';

/** How one call's program is started, and what to let go of once it has ended. */
export interface SubprocessLauncher {
  ranIn: 'sandbox' | 'host';
  launch: (argv: readonly string[]) => Launch;
  /** Bash run before the program: its resource limits. */
  prelude: string;
  /** The program's HOME, as it sees it. */
  home: string;
  /** Variables the program gets besides the minimal environment (a private `TMPDIR` outside the sandbox). */
  env: Record<string, string>;
  /** What the kernel counted for the program's processes together (its control group), where there is one. */
  events: () => GroupEvents | undefined;
  /** Called once the program runs (or ended before): commands paused while its sandbox was made run on. */
  ready: () => void;
  /** Lets go of what the launch held; resolves once it is gone (the sandbox's placeholders removed from the workspace). */
  release: () => Promise<void>;
}

export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/** How long the call's end waits for its control group to empty (`CommandGroup.remove` gives up after ten seconds). */
const GROUP_REMOVAL_MS = 11_000;

/** Where the sandbox makes the program's HOME: on its private `/tmp`. */
const SANDBOX_HOME = '/tmp/home';

/**
 * The launcher for one call, as the shell makes one for a command (`ShellSandbox`): inside bubblewrap where the mode
 * and this machine allow it, with the limits set by the sandbox's prelude and counted together by a control group;
 * else (mode `off`, or `auto` where this machine cannot make a sandbox) on the host, in a process group with the
 * per-process limits (`ulimit`) and a private HOME. The CPU limit is soft at `cpuSeconds` and hard a second later, so
 * a program that runs out gets SIGXCPU (which says why it ended) rather than SIGKILL (which does not).
 */
export async function subprocessLauncher(
  mode: SandboxMode,
  limits: SubprocessLimits,
  mounts: Omit<MountRequest, 'home' | 'limits'>,
): Promise<SubprocessLauncher> {
  const hard = { ...limits, cpuSeconds: limits.cpuSeconds + 1 };
  const softCpu = `ulimit -S -t ${limits.cpuSeconds} || exit 126; `;
  const decision: SandboxDecision = mode === 'off' ? { run: 'unsandboxed' } : decideSandbox(mode, await probeSandbox());
  if (decision.run === 'refused') throw new SourceError('sandbox_unavailable', `the subprocess tool was not run: ${decision.reason}`);
  if (decision.run === 'unsandboxed') {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-subprocess-'));
    return {
      ranIn: 'host',
      launch: unsandboxedCommand,
      prelude: `${limitsPrelude(hard, undefined)}${softCpu}`,
      home,
      env: { TMPDIR: home },
      events: () => undefined,
      ready: () => {},
      release: async () => fs.rmSync(home, { recursive: true, force: true }),
    };
  }
  // As for the shell's commands: the others are paused from the look at the workspace until the sandbox stands, so
  // none can swap a folder for a link between the plan and bubblewrap's mounts.
  let resume: () => void;
  try {
    resume = await pauseCommands();
  } catch (error) {
    throw new SourceError('sandbox_unavailable', `the subprocess tool was not run: ${messageOf(error)}; try again`);
  }
  let planned: ReturnType<typeof subprocessPolicy>;
  let group: CommandGroup | undefined;
  try {
    planned = subprocessPolicy({ ...mounts, home: SANDBOX_HOME, limits: hard });
    try {
      group = makeCommandGroup(hard);
    } catch (error) {
      void planned.release();
      throw error;
    }
  } catch (error) {
    resume();
    if (error instanceof SourceError) throw error;
    throw new SourceError('sandbox_unavailable', `the subprocess tool was not run: ${messageOf(error)}`);
  }
  const { policy, release } = planned;
  return {
    ranIn: 'sandbox',
    launch: (argv) => {
      try {
        return sandboxedCommand(decision.support, policy, argv, group);
      } catch (error) {
        throw new SourceError('sandbox_unavailable', `the subprocess tool was not run: ${messageOf(error)}`);
      }
    },
    prelude: `${sandboxLimitsPrelude(decision.support, policy)}${softCpu}`,
    home: SANDBOX_HOME,
    env: {},
    events: () => group?.events(),
    ready: resume,
    // The placeholders are let go of once none of the sandbox's processes is left (they may outlive its first for a moment).
    release: () => {
      resume();
      if (!group) return release();
      return new Promise<void>((resolve) => {
        // The group gives up on a process that outlives ten seconds of killing (left to the host's exit): so does the wait.
        const giveUp = setTimeout(resolve, GROUP_REMOVAL_MS).unref();
        group.remove(
          () =>
            void release().then(() => {
              clearTimeout(giveUp);
              resolve();
            }),
        );
      });
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
