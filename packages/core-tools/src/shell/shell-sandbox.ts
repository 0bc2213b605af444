import path from 'node:path';
import {
  decideSandbox,
  DEFAULT_LIMITS,
  limitsProblem,
  makeCommandGroup,
  pauseCommands,
  probeSandbox,
  sandboxedCommand,
  sandboxLimitsPrelude,
  unsandboxedCommand,
  watchCovers,
  type CommandGroup,
  type Launch,
  type SandboxDecision,
  type SandboxMode,
  type SandboxSupport,
} from '@toolwright/sandbox';
import { CoreToolError } from '../core-tool-error.js';
import { admit } from './sandbox-admission.js';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { networkFor, SandboxView, type SandboxSettings } from './sandbox-view.js';

/** How one command is started, and where it runs. */
export interface CommandLauncher {
  launch: (argv: readonly string[]) => Launch;
  ranIn: 'sandbox' | 'host' | 'escalated';
  /** Whether a sandboxed command may use the network. */
  network?: boolean;
  /** Bash to run first in the shell's own script: the sandbox's resource limits (`ulimit ...`). */
  prelude?: string;
  /** Lets go of what the sandbox holds for the command (placeholders of missing protected paths, its control group) once it has ended. */
  release: () => void;
  /** The resource limits the command's processes ran into since the last ask (a session shell asks after each command). */
  limitsReached?: () => string[];
  /**
   * Called once the sandbox stands (its first process runs: every mount is made), or the command
   * ended before: other commands, paused while it was planned and made, run on.
   */
  ready?: () => void;
}

/** Where a command runs and whether it may use the network, as a launcher would set it. */
export type LaunchSetting = Pick<CommandLauncher, 'ranIn' | 'network'>;

/**
 * The shell's kernel sandbox: the mode decided once per tool set against what this machine supports
 * (`decideSandbox`), and for each command the launcher that puts it inside (or, for an escalated
 * call a person approved, outside).
 */
export class ShellSandbox {
  private decision: Promise<SandboxDecision> | undefined;
  private readonly view: SandboxView;

  constructor(
    private readonly mode: SandboxMode,
    workspace: WorkspacePolicy,
    private readonly settings: SandboxSettings,
    private readonly probe: () => Promise<SandboxSupport> = () => probeSandbox(),
  ) {
    const problem = limitsProblem(settings.limits ?? {});
    if (problem) throw new CoreToolError('invalid_config', `shell.limits: ${problem}`);
    this.view = new SandboxView(workspace, settings);
  }

  /** What this shell does with commands here: sandboxed, unsandboxed (with a warning under `auto`), or refused. */
  decide(): Promise<SandboxDecision> {
    const decision = (this.decision ??= this.probe().then((support) => {
      // A sandbox that could not be made just now is tried again at the next command, never decided against.
      if (!support.available && support.transient && this.decision === decision) this.decision = undefined;
      return decideSandbox(this.mode, support);
    }));
    return decision;
  }

  /**
   * Where a command would run and whether with the network, planning nothing and pausing no one: a
   * session whose shell stands with that setting runs its next line in it without a launcher.
   */
  async setting(granted?: readonly string[]): Promise<LaunchSetting> {
    const decision = await this.decide();
    if (decision.run === 'refused') throw new CoreToolError('sandbox_unavailable', `Shell commands cannot run: ${decision.reason}.`);
    if (decision.run === 'unsandboxed') return { ranIn: 'host' };
    return { ranIn: 'sandbox', network: networkFor(this.settings, granted) };
  }

  /**
   * The launcher for a command that starts in `cwd` with `env`, with the network where the shell
   * allows it and the call holds the capability (`granted`: the call's explicit grant). An escalated command runs outside
   * the sandbox (`shellExec` has checked that a person confirmed exactly that: the tool context's
   * `escalationConfirmed`); under `required`, a machine without the sandbox refuses every other command.
   */
  async launcher(cwd: string, env: Record<string, string>, escalate: boolean, granted?: readonly string[]): Promise<CommandLauncher> {
    if (escalate) return { launch: unsandboxedCommand, ranIn: 'escalated', release: () => {} };
    const decision = await this.decide();
    if (decision.run === 'refused') throw new CoreToolError('sandbox_unavailable', `Shell commands cannot run: ${decision.reason}.`);
    if (decision.run === 'unsandboxed') return { launch: unsandboxedCommand, ranIn: 'host', release: () => {} };
    const release = admit(this.settings.limits?.memoryBytes ?? DEFAULT_LIMITS.memoryBytes);
    try {
      return await this.sandboxedLauncher(decision, cwd, env, granted, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  private async sandboxedLauncher(
    decision: Extract<SandboxDecision, { run: 'sandboxed' }>,
    cwd: string,
    env: Record<string, string>,
    granted: readonly string[] | undefined,
    admitted: () => void,
  ): Promise<CommandLauncher> {
    // Commands running beside this one are paused from the look at the workspace until the sandbox stands
    // (see pauseCommands): none can swap a folder for a link between the plan and bubblewrap's mounts.
    let resume: () => void;
    try {
      resume = await pauseCommands();
    } catch (error) {
      throw new CoreToolError('sandbox_unavailable', `The command was not run: ${error instanceof Error ? error.message : String(error)}; try again.`);
    }
    let planned: ReturnType<SandboxView['plan']>;
    try {
      planned = this.view.plan(cwd, env, networkFor(this.settings, granted));
    } catch (error) {
      resume();
      if (error instanceof CoreToolError) throw error;
      throw new CoreToolError('sandbox_unavailable', `The command was not run: ${error instanceof Error ? error.message : String(error)}.`);
    }
    const { policy, release } = planned;
    // The command's control group, made when it is first started (a session's later launchers start nothing)
    // and kept for a session shell's restarts.
    let group: CommandGroup | undefined;
    let grouped = false;
    // A covered path the host replaces while the sandbox runs is covered no more in it: the sandbox is ended then.
    let replaced: string | undefined;
    const unwatch = watchCovers(
      [...policy.readOnly, ...policy.hidden],
      (covered) => {
        replaced = path.relative(policy.workspace, covered) || '.';
        // Not started yet: it never will be (groupFor). Started without a control group: nothing can end it here.
        if (!grouped) return true;
        return group?.killAndWait() ?? false;
      },
      policy.workspace,
    );
    const groupFor = () => {
      if (replaced !== undefined)
        throw new CoreToolError(
          'sandbox_unavailable',
          `The command was not run: '${replaced}' was replaced on the host while its sandbox was planned; run it again.`,
        );
      if (!grouped) {
        grouped = true;
        try {
          group = makeCommandGroup(policy.limits);
        } catch (error) {
          void release();
          throw new CoreToolError('sandbox_unavailable', `The command was not run: ${error instanceof Error ? error.message : String(error)}.`);
        }
      }
      return group;
    };
    return {
      launch: (argv) => {
        try {
          return sandboxedCommand(decision.support, policy, argv, groupFor());
        } catch (error) {
          if (error instanceof CoreToolError) throw error;
          throw new CoreToolError('sandbox_unavailable', `The command was not run: ${error instanceof Error ? error.message : String(error)}.`);
        }
      },
      prelude: sandboxLimitsPrelude(decision.support, policy),
      ranIn: 'sandbox',
      network: policy.network,
      // What the sandbox held (its placeholders) is let go of once none of its processes is left: a
      // process outside the command's process group (`setsid`) outlives the group's kill for a moment,
      // and must never see a placeholder it had mounted go.
      release: () => {
        resume();
        admitted();
        // Watched until none of its processes is left: one in a session of its own outlives the command's end for a moment.
        const done = () => {
          unwatch();
          void release();
        };
        if (group) group.remove(done);
        else done();
      },
      limitsReached: () => [
        ...(group?.reachedSinceLast() ?? []),
        ...(replaced !== undefined
          ? [
              `stopped: '${replaced}', which the sandbox kept ${policy.hidden.some((entry) => path.relative(policy.workspace, entry) === replaced) ? 'hidden' : 'read-only'}, was replaced on the host while the command ran, so the sandbox was ended (a replaced file is not covered in a sandbox made before); run the command again`,
            ]
          : []),
      ],
      ready: resume,
    };
  }
}
