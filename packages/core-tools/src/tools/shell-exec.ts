import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { modelSize, outputBudget } from '../model-text/output-budget.js';
import { fitStreams } from '../shell/fit-streams.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { loadBashParser } from '../shell/bash-parser.js';
import { analyzeCommand, type CommandVerdict } from '../shell/command-analysis.js';
import { gitConfigGuard } from '../shell/git-config-guard.js';
import { gitOrderProblem } from '../shell/program-rules.js';
import { JobTable } from '../shell/jobs.js';
import { RunningProcess, type ProcessOutcome } from '../shell/run-process.js';
import type { HeadTailBuffer } from '../shell/output-buffer.js';
import { commandEnvironment, resolvedShellConfig, type RunningShellOptions, type ShellConfig } from '../shell/shell-config.js';
import { SessionShell, type SessionOutcome } from '../shell/session-shell.js';
import { isWithin } from '../workspace/workspace-policy.js';
import path from 'node:path';
import { DEFAULT_SHELL_POLICY } from '../shell/shell-policy.js';
import { workspaceConfinement } from '../shell/confinement.js';
import { isWellFormed } from '../workspace/text-rules.js';
import { CoreToolError } from '../core-tool-error.js';
import { renderName, renderText } from '../model-text/render-name.js';

/** What `shell_exec` returns. */
export interface ShellResult {
  /** The exit status, or null when a signal ended the command. */
  exitCode: Integer | null;
  /** The signal that ended the command (e.g. SIGKILL after a timeout), or null. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Whether stdout or stderr was longer than the cap or the output budget (their middle is omitted, with a marker). */
  truncated: boolean;
  stdoutBytes: Integer;
  stderrBytes: Integer;
  timedOut: boolean;
  durationMs: Integer;
  /** Session backend: the shell's working directory afterwards, relative to the workspace root. */
  cwd?: string;
  /** Session backend: the session shell was started afresh (its directory and variables reset). */
  sessionRestarted?: boolean;
}

/** What starting a background command returns. */
export interface ShellJobStarted {
  jobId: string;
  command: string;
}

/** The state of a background job. */
export interface ShellJobStatus {
  jobId: string;
  running: boolean;
  /** Present once the job has finished. */
  result?: ShellResult;
  /** Output so far, while it runs. */
  stdout?: string;
  stderr?: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 32 * 1024;
/** Room kept for the status line and notes around the output blocks. */
const HEADER_ROOM = 300;

/** Runs shell commands in the workspace, each judged by a bash parser against an allowlist. */
export class ShellTool {
  private readonly config: ShellConfig;
  private readonly jobs: JobTable;
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly env: CoreToolsEnvironment) {
    this.config = resolvedShellConfig(env.shell);
    this.jobs = new JobTable(this.config.backend === 'disabled' ? 0 : (this.config.maxJobs ?? 8));
  }

  /**
   * Runs a shell command in the workspace root and returns its exit code, stdout and stderr.
   * The command is parsed as bash and every command in it must be on the allowlist; command
   * substitution, variables, redirections to files, subshells, loops and `&` are refused, as are
   * paths outside the workspace. Use the file tools to read and change files, not the shell.
   * stdin is closed (commands must not wait for input); output longer than the call's output budget
   * (about 16 KiB for both streams) keeps its first and last lines with a note of what was left out.
   * The command is killed with its whole process tree at the timeout. In a session shell (when
   * configured) `cd` and permitted variables persist between calls and the working directory is
   * reported. With `background: true` it returns a job id at once; read the output with
   * shell_job_output and stop it with shell_job_kill.
   * @param command The command line, e.g. `npm test -- --run` or `git diff --stat | tail -5`.
   * @param timeoutSeconds Kill the command after this many seconds (default 120).
   * @param background Start the command and return a job id instead of waiting for it.
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
  ): Promise<ShellResult | ShellJobStarted> {
    const config = this.config;
    if (config.backend === 'disabled') {
      throw new CoreToolError(
        'not_configured',
        `The shell is disabled in this workspace${config.reason ? `: ${config.reason}` : ''}. Use the file tools instead.`,
      );
    }
    const context = getToolContext();
    if (config.backend === 'session' && !background)
      return this.runInSession(command, timeoutSeconds, config, context?.sessionId ?? 'default', context?.signal);
    const root = this.env.workspace.rootOf('private');
    const env = commandEnvironment(config, root);
    const verdict = await this.judge(command, config, env);
    const running = new RunningProcess({
      command: verdict.script,
      cwd: root,
      env,
      timeoutMs: Math.min(timeoutSeconds !== undefined ? timeoutSeconds * 1000 : Infinity, config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      maxOutputBytes: config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
      killGraceMs: config.killGraceMs ?? 2000,
      // A background job outlives the call, so the call's signal must not stop it.
      ...(!background && context?.signal ? { signal: context.signal } : {}),
    });
    if (background) {
      const job = this.jobs.start(command, running);
      return { jobId: job.id, command };
    }
    const outcome = await running.done;
    if (outcome.cancelled) throw new CoreToolError('cancelled', 'The command was cancelled and its process tree killed.');
    return toResult(outcome);
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
      return { jobId, running: false, result: toResult(outcome) };
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
    return toResult(outcome);
  }

  /** Stops every background job and session shell; call when the tools are no longer needed. */
  dispose(): void {
    this.jobs.killAll();
    for (const session of this.sessions.values()) session.shell.dispose();
    this.sessions.clear();
  }

  private async runInSession(
    command: string,
    timeoutSeconds: number | undefined,
    config: Extract<ShellConfig, { backend: 'session' }>,
    sessionId: string,
    signal: AbortSignal | undefined,
  ): Promise<ShellResult> {
    const root = this.env.workspace.rootOf('private');
    let session = this.sessions.get(sessionId);
    if (!session) {
      if (this.sessions.size >= (config.maxSessions ?? 16)) {
        const [oldest, entry] = this.sessions.entries().next().value as [string, { shell: SessionShell }];
        entry.shell.dispose();
        this.sessions.delete(oldest);
      }
      const env = commandEnvironment(config, root);
      session = { shell: new SessionShell({ root, env, killGraceMs: config.killGraceMs ?? 2000 }), cwd: root, env, variables: new Map(Object.entries(env)) };
    }
    this.sessions.delete(sessionId); // re-insert: most recently used last
    this.sessions.set(sessionId, session);
    const verdict = await this.judge(command, config, session.env, session.cwd, session.variables);
    // Values are substituted when the line is judged, so the session's own record of its variables
    // is what later lines expand (whether or not bash ran the assignment, both agree on the words).
    for (const [name, value] of verdict.assignments) session.variables.set(name, value);
    const outcome: SessionOutcome = await session.shell.run(verdict.script, {
      timeoutMs: Math.min(timeoutSeconds !== undefined ? timeoutSeconds * 1000 : Infinity, config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      maxOutputBytes: config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
      ...(signal ? { signal } : {}),
      ...(session.cwd !== root && !isWithin(root, session.cwd) ? { resetTo: root } : {}),
    });
    if (outcome.cancelled)
      throw new CoreToolError('cancelled', 'The command was cancelled; the session shell was ended with its process tree (the next call starts a fresh one).');
    // A shell that left the workspace (e.g. `cd` with no argument goes to HOME) is moved back.
    const inside = outcome.cwd === root || isWithin(root, outcome.cwd);
    session.cwd = outcome.restarted ? root : inside ? outcome.cwd : root;
    const cwd = path.relative(root, session.cwd).split(path.sep).join('/') || '.';
    const reset = '[the working directory left the workspace and was reset to its root]';
    const result = toResult(outcome, modelSize(cwd) + (inside ? 0 : reset.length + 1));
    if (!inside) result.stderr += `${result.stderr && !result.stderr.endsWith('\n') ? '\n' : ''}${reset}`;
    if (outcome.restarted || outcome.timedOut) this.sessions.set(sessionId, { ...session, cwd: root, variables: new Map(Object.entries(session.env)) });
    return { ...result, cwd, sessionRestarted: outcome.restarted || outcome.timedOut };
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
    const parser = await loadBashParser();
    const tree = parser.parse(command);
    if (!tree) throw new CoreToolError('invalid_command', 'The command could not be parsed as bash; check its quoting.');
    let verdict: CommandVerdict;
    try {
      verdict = analyzeCommand(tree.rootNode, policy, workspaceConfinement(this.env.workspace, cwd), variables ?? new Map(Object.entries(env)));
    } finally {
      tree.delete();
    }
    if (!verdict.ok) throw new CoreToolError('command_refused', `The command was refused: ${verdict.reason}.`);
    if (verdict.commands.some((c) => c.program === 'git')) {
      const refused = gitOrderProblem(verdict.commands.map((c) => c.program)) ?? (await gitConfigGuard(verdict.cwds, env));
      if (refused) throw new CoreToolError('command_refused', `The command was refused: ${refused}.`);
    }
    return verdict;
  }
}

interface Session {
  shell: SessionShell;
  cwd: string;
  env: Record<string, string>;
  /** The variables this session's lines expand: its environment and the assignments judged so far. */
  variables: Map<string, string>;
}

/** What the model reads of both streams: each buffer's text, cut to the call's output budget. */
function fittedStreams(stdout: HeadTailBuffer, stderr: HeadTailBuffer, reserved = 0): [string, string, boolean] {
  const out = { text: stdout.text(), totalBytes: stdout.totalBytes };
  const err = { text: stderr.text(), totalBytes: stderr.totalBytes };
  const fitted = fitStreams(out, err, outputBudget() - HEADER_ROOM - reserved);
  return fitted ? [...fitted, true] : [out.text, err.text, stdout.truncated || stderr.truncated];
}

/** The outcome as a result, its streams fitted to the output budget less `reserved` (text added around them). */
function toResult(outcome: ProcessOutcome, reserved = 0): ShellResult {
  const [stdout, stderr, truncated] = fittedStreams(outcome.stdout, outcome.stderr, reserved);
  return {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    stdout,
    stderr,
    truncated,
    stdoutBytes: outcome.stdout.totalBytes,
    stderrBytes: outcome.stderr.totalBytes,
    timedOut: outcome.timedOut,
    durationMs: outcome.durationMs,
  };
}

/**
 * The status on one line (exit code or signal, duration, the session's directory), then each
 * stream that wrote anything under a `[stdout]` or `[stderr]` heading.
 * @example 'exit code 1 (40 ms)\n[stderr]\nls: cannot access \'missing\': No such file or directory'
 */
export function renderShellResult(result: ShellResult): string {
  const status = result.timedOut
    ? `timed out and was killed${result.signal ? ` (${result.signal})` : ''}`
    : result.exitCode !== null
      ? `exit code ${result.exitCode}`
      : `ended by signal ${result.signal ?? 'unknown'}`;
  const lines = [`${status} (${duration(result.durationMs)})${result.cwd !== undefined ? `; working directory: ${renderName(result.cwd)}` : ''}`];
  if (result.sessionRestarted) lines.push('[the session shell was started afresh: its working directory and variables were reset]');
  lines.push(...streamBlocks(result.stdout, result.stderr));
  return lines.join('\n');
}

/** A background job: how to follow it, its output so far, or its result. */
export function renderShellJob(job: ShellJobStarted | ShellJobStatus): string {
  if ('command' in job)
    return `Started background job ${job.jobId}: ${renderText(job.command)}\nRead its output with shell_job_output (jobId "${job.jobId}"); stop it with shell_job_kill.`;
  if (job.result) return `job ${job.jobId} has finished: ${renderShellResult(job.result)}`;
  return [`job ${job.jobId} is still running; its output so far:`, ...streamBlocks(job.stdout ?? '', job.stderr ?? '')].join('\n');
}

function streamBlocks(stdout: string, stderr: string): string[] {
  const blocks: string[] = [];
  if (stdout !== '') blocks.push('[stdout]', stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout);
  if (stderr !== '') blocks.push('[stderr]', stderr.endsWith('\n') ? stderr.slice(0, -1) : stderr);
  if (blocks.length === 0) blocks.push('[no output]');
  return blocks;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
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
