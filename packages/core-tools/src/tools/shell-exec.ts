import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { parseCommandLine } from '../shell/parse-command-line.js';
import { analyzeCommand, type CommandVerdict } from '../shell/command-analysis.js';
import { gitConfigGuard } from '../shell/git-config-guard.js';
import { gitHistoryProblem } from '../shell/git-history-guard.js';
import { gitOrderProblem, linkOrderProblem } from '../shell/program-rules.js';
import { JobTable, type Job } from '../shell/jobs.js';
import { RunningProcess, type ProcessOutcome } from '../shell/run-process.js';
import { commandEnvironment, resolvedShellConfig, type RunningShellOptions, type ShellConfig } from '../shell/shell-config.js';
import { ShellSessions, type JudgedLine } from '../shell/shell-sessions.js';
import { ShellSandbox } from '../shell/shell-sandbox.js';
import { fittedStreams, toResult, type ShellJobStarted, type ShellJobStatus, type ShellResult } from '../shell/shell-result.js';
import { renderShellJob, renderShellResult } from '../shell/render-shell.js';
import { DEFAULT_SHELL_POLICY } from '../shell/shell-policy.js';
import { workspaceConfinement } from '../shell/confinement.js';
import { isWellFormed } from '../workspace/text-rules.js';
import { CoreToolError } from '../core-tool-error.js';
import { renderText } from '../model-text/render-name.js';

export type { ShellResult, ShellJobStarted, ShellJobStatus } from '../shell/shell-result.js';
export { renderShellResult, renderShellJob } from '../shell/render-shell.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 32 * 1024;

/** Runs shell commands in the workspace, each judged by a bash parser against an allowlist. */
export class ShellTool {
  private readonly config: ShellConfig;
  private readonly jobs: JobTable;
  private readonly sessions: ShellSessions;
  /** The kernel sandbox commands run in (undefined when the shell is disabled). */
  readonly sandbox: ShellSandbox | undefined;

  constructor(private readonly env: CoreToolsEnvironment) {
    const config = (this.config = resolvedShellConfig(env.shell));
    this.jobs = new JobTable(config.backend === 'disabled' ? 0 : (config.maxJobs ?? 8));
    this.sessions = new ShellSessions(env.workspace.rootOf('private'), config.backend === 'session' ? (config.maxSessions ?? 16) : 0);
    this.sandbox =
      config.backend === 'disabled'
        ? undefined
        : new ShellSandbox(config.unjudged ? 'required' : (config.sandbox ?? 'auto'), env.workspace, {
            ...(config.network !== undefined ? { network: config.network } : {}),
            ...(config.readablePaths ? { readablePaths: config.readablePaths } : {}),
            ...(config.limits ? { limits: config.limits } : {}),
          });
  }

  /**
   * Runs a shell command in the workspace root and returns its exit code, stdout and stderr.
   * The command is parsed as bash and every command in it must be on the allowlist; command
   * substitution, variables, redirections to files, subshells, loops and `&` are refused, as are
   * paths outside the workspace. Use the file tools to read and change files, not the shell.
   * Commands run in a sandbox: the workspace is the only writable place, nothing outside it (and the
   * system's programs) is visible, and there is no network.
   * stdin is closed (commands must not wait for input); output longer than the call's output budget
   * (about 16 KiB for both streams) keeps its first and last lines with a note of what was left out.
   * The command is killed with its whole process tree at the timeout. In a session shell (when
   * configured) `cd` and permitted variables persist between calls and the working directory is
   * reported. With `background: true` it returns a job id at once; read the output with
   * shell_job_output and stop it with shell_job_kill.
   * @param command The command line, e.g. `grep -rn TODO src | head -20` or `git diff --stat | tail -5`.
   * @param timeoutSeconds Kill the command after this many seconds (default 120).
   * @param background Start the command and return a job id instead of waiting for it.
   * @param escalate Run outside the sandbox. Only for a command that failed inside it because it needs
   * more (a write outside the workspace, the network); a person must approve this exact call.
   */
  @renderedAs((output: ShellResult | ShellJobStarted) => ('jobId' in output ? renderShellJob(output) : renderShellResult(output)))
  @tool({
    tier: 'privileged',
    group: 'exec',
    sideEffects: ['process-spawn', 'fs-write'],
    capabilities: ['process.spawn'],
    determinism: 'non-deterministic',
    timeout: '10m',
    parallel: false,
  })
  async shellExec(
    command: string,
    /** @minimum 1 @maximum 600 */ timeoutSeconds?: Integer,
    background: boolean = false,
    escalate: boolean = false,
  ): Promise<ShellResult | ShellJobStarted> {
    const config = this.config;
    if (config.backend === 'disabled' || !this.sandbox) {
      throw new CoreToolError(
        'not_configured',
        `The shell is disabled in this workspace${config.backend === 'disabled' && config.reason ? `: ${config.reason}` : ''}. Use the file tools instead.`,
      );
    }
    const sandbox = this.sandbox;
    const context = getToolContext();
    // Defence in depth: a host that calls the tool directly, or whose executor lacks the core tools'
    // risk hooks (so no escalation gate asked anyone), never runs a command outside the sandbox.
    if (escalate && context?.escalationConfirmed !== true) {
      throw new CoreToolError(
        'escalation_unconfirmed',
        "Running a command outside the sandbox (escalate: true) needs a person to confirm this exact call, asked by an executor with the escalation gate (the core tools' risk hooks, coreToolsRiskLevels); no one confirmed this one, so the command was not run. Run it without escalate, or ask the user to run it.",
      );
    }
    const root = this.env.workspace.rootOf('private');
    const timeoutMs = Math.min(timeoutSeconds !== undefined ? timeoutSeconds * 1000 : Infinity, config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const maxOutputBytes = config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const killGraceMs = config.killGraceMs ?? 2000;
    if (config.backend === 'session' && !background && !escalate) {
      return this.sessions.run(context?.sessionId ?? 'default', {
        env: () => commandEnvironment(config, root),
        launcher: (cwd, env) => sandbox.launcher(cwd, env, false, context?.capabilities),
        setting: () => sandbox.setting(context?.capabilities),
        judge: (cwd, env, variables) => this.judgeLine(command, config, env, cwd, variables),
        killGraceMs,
        timeoutMs,
        maxOutputBytes,
        ...(context?.signal ? { signal: context.signal } : {}),
      });
    }
    const env = commandEnvironment(config, root);
    // Judged first (the judge explains and refuses), then started where the sandbox decision says.
    const verdict = await this.judgeLine(command, config, env, undefined, undefined, !escalate);
    const launcher = await sandbox.launcher(root, env, escalate, context?.capabilities);
    let running: RunningProcess;
    try {
      running = new RunningProcess({
        command: verdict.script,
        cwd: root,
        env,
        timeoutMs,
        maxOutputBytes,
        killGraceMs,
        launch: launcher.launch,
        ...(launcher.prelude ? { prelude: launcher.prelude } : {}),
        ...(launcher.ready ? { onReady: launcher.ready } : {}),
        // A background job outlives the call, so the call's signal must not stop it.
        ...(!background && context?.signal ? { signal: context.signal } : {}),
      });
    } catch (error) {
      launcher.release();
      throw error;
    }
    // What the command ran into is read from its control group before the group goes.
    // (Attached first, it runs before anything else that waits for the command: a job's status includes it.)
    let limitsReached: string[] = [];
    let job: ReturnType<typeof this.jobs.start> | undefined;
    const finished = running.done.finally(() => {
      limitsReached = launcher.limitsReached?.() ?? [];
      if (job) job.limitsReached = limitsReached;
      launcher.release();
    });
    if (background) {
      job = this.jobs.start(command, running);
      job.ranIn = launcher.ranIn;
      void finished.catch(() => undefined);
      return { jobId: job.id, command };
    }
    const outcome = await finished;
    if (outcome.cancelled) throw new CoreToolError('cancelled', 'The command was cancelled and its process tree killed.');
    return { ...toResult(outcome), ranIn: launcher.ranIn, ...(limitsReached.length > 0 ? { limitsReached } : {}) };
  }

  /**
   * Returns a background job's output: the result once it has finished, else the output so far.
   * With `waitSeconds`, waits up to that long for the job to finish first.
   * @param jobId The id shell_exec returned.
   * @param waitSeconds Seconds to wait for the job to finish (default 0: answer at once).
   */
  @renderedAs(renderShellJob)
  @tool({ tier: 'read-only', group: 'exec', sideEffects: ['none'], capabilities: ['process.spawn'], determinism: 'non-deterministic', timeout: '2m' })
  async shellJobOutput(jobId: string, /** @minimum 0 @maximum 60 */ waitSeconds: Integer = 0): Promise<ShellJobStatus> {
    const job = this.jobs.get(jobId);
    if (!job.outcome && waitSeconds > 0) {
      const signal = getToolContext()?.signal;
      await Promise.race([job.process.done, delay(waitSeconds * 1000, signal)]);
    }
    const outcome = job.outcome ?? (job.process.exited ? await job.process.done : undefined);
    if (outcome) {
      this.jobs.forget(jobId);
      return { jobId, running: false, result: jobResult(job, outcome) };
    }
    const [stdout, stderr] = fittedStreams(job.process.stdout, job.process.stderr);
    return { jobId, running: true, stdout, stderr };
  }

  /**
   * Stops a background job and its whole process tree (TERM, then KILL after a grace period) and
   * returns its final output.
   * @param jobId The id shell_exec returned.
   */
  @renderedAs(renderShellResult)
  @tool({
    tier: 'side-effecting',
    group: 'exec',
    sideEffects: ['process-spawn'],
    capabilities: ['process.spawn'],
    determinism: 'non-deterministic',
    timeout: '30s',
  })
  async shellJobKill(jobId: string): Promise<ShellResult> {
    const job = this.jobs.get(jobId);
    job.process.kill();
    const outcome = await job.process.done;
    this.jobs.forget(jobId);
    return jobResult(job, outcome);
  }

  /** Stops every background job and session shell; call when the tools are no longer needed. */
  dispose(): void {
    this.jobs.killAll();
    this.sessions.dispose();
  }

  /**
   * The line that runs: judged (the words rebuilt and quoted), or — with `unjudged` set for tests,
   * which forces the sandbox to `required`, and never for an escalated call — the command as given.
   */
  private async judgeLine(
    command: string,
    config: RunningShellOptions,
    env: Record<string, string>,
    cwd?: string,
    variables?: ReadonlyMap<string, string>,
    sandboxed = true,
  ): Promise<JudgedLine> {
    if (config.unjudged && sandboxed) return { script: command, assignments: [] };
    return this.judge(command, config, env, cwd, variables);
  }

  /**
   * Parses and judges a command line; returns the verdict whose `script` is what runs. Where git may
   * run, the configuration it would obey there is read first (`gitConfigGuard`).
   */
  private async judge(
    command: string,
    config: RunningShellOptions,
    env: Record<string, string>,
    cwd?: string,
    variables?: ReadonlyMap<string, string>,
  ): Promise<Extract<CommandVerdict, { ok: true }>> {
    const policy = config.policy ?? DEFAULT_SHELL_POLICY;
    const maxLength = policy.maxLength ?? 4096;
    if (command.trim() === '') throw new CoreToolError('invalid_command', 'The command is empty; give the command line to run.');
    if (command.length > maxLength)
      throw new CoreToolError(
        'invalid_command',
        `The command is ${command.length} characters long; the limit is ${maxLength}. Put long content in a file with file_write.`,
      );
    if (/[\0\r]/.test(command)) throw new CoreToolError('invalid_command', 'The command contains a NUL or carriage-return character; remove it.');
    if (!isWellFormed(command))
      throw new CoreToolError('invalid_command', 'The command contains a lone UTF-16 surrogate, which no program can receive; send well-formed text.');
    const tree = await parseCommandLine(command);
    let verdict: CommandVerdict;
    try {
      verdict = analyzeCommand(tree.rootNode, policy, workspaceConfinement(this.env.workspace, cwd), variables ?? new Map(Object.entries(env)));
    } finally {
      tree.delete();
    }
    // A reason may quote a file name a glob expanded to (`cat *`): shown with renderText, it adds no line.
    if (!verdict.ok) throw new CoreToolError('command_refused', `The command was refused: ${renderText(verdict.reason)}.`);
    const linked = linkOrderProblem(verdict.commands);
    if (linked) throw new CoreToolError('command_refused', `The command was refused: ${renderText(linked)}.`);
    if (verdict.commands.some((c) => c.program === 'git')) {
      const refused =
        gitHistoryProblem(verdict.commands, this.env.workspace.deniedPatterns) ??
        gitOrderProblem(verdict.commands.map((c) => c.program)) ??
        (await gitConfigGuard(verdict.cwds, env));
      if (refused) throw new CoreToolError('command_refused', `The command was refused: ${renderText(refused)}.`);
    }
    return verdict;
  }
}

function jobResult(job: Job, outcome: ProcessOutcome): ShellResult {
  return {
    ...toResult(outcome),
    ...(job.ranIn ? { ranIn: job.ranIn } : {}),
    ...(job.limitsReached?.length ? { limitsReached: job.limitsReached } : {}),
  };
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
