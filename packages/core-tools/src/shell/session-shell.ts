import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { HeadTailBuffer } from './output-buffer.js';
import { closeLaunchDescriptors, launchStdio, ProcessGroups, signalGroup, startTime, unsandboxedCommand, type Launch } from '@toolwright/sandbox';
import { writeInput, type ProcessOutcome } from './run-process.js';

/** What one command in a session shell produced, and where the shell stands afterwards. */
export interface SessionOutcome extends ProcessOutcome {
  /** The shell's working directory after the command (absolute, symlinks resolved). */
  cwd: string;
  /** Whether the session was ended (timeout, cancellation, crash) and will start afresh. */
  restarted: boolean;
  /** The shell had ended and starts only once (`startOnce`): the command did not run. */
  ended?: boolean;
}

interface Pending {
  nonce: string;
  marker: Buffer;
  stdout: HeadTailBuffer;
  stderr: HeadTailBuffer;
  held: { stdout: Buffer; stderr: Buffer };
  done: { stdout: boolean; stderr: boolean; status?: { code: number; cwd: string } };
  started: number;
  resolve(outcome: SessionOutcome): void;
}

/**
 * The session backend: one long-lived bash per session (no start-up files, allowlisted
 * environment, its own process group) that keeps its working directory and variables between
 * calls. Each command is passed through a quoted here-document with a random delimiter and run
 * with `eval` and stdin from /dev/null; after it, the shell writes an end marker carrying a random
 * nonce to stdout and stderr and its status and `pwd -P` to a control pipe (fd 3), so output is
 * split per call without trusting anything the command prints. A command that overruns its
 * deadline or is cancelled takes the session down (the whole process group, TERM then KILL); the
 * next call starts a fresh shell, and says so.
 */
/** Most the control pipe may hold before a line ends: a status line (nonce, status, a path of at most PATH_MAX). */
const MAX_CONTROL_CHARS = 8192;

export class SessionShell {
  private child: ChildProcess | undefined;
  /** Settles once the current shell's group is registered with the watchdog: no command is sent before. */
  private registered: Promise<void> = Promise.resolve();
  private leaderStart: string | undefined;
  private pending: Pending | undefined;
  private control = '';
  private queue: Promise<unknown> = Promise.resolve();
  private killing: NodeJS.Timeout | undefined;
  private exitReason: { code: number | null; signal: string | null } | undefined;
  private fresh = true;
  private awaitingReady = false;
  private readyTold = false;

  constructor(
    private readonly options: {
      root: string;
      env: Record<string, string>;
      killGraceMs: number;
      /** How the shell is started: inside the kernel sandbox, or as it is (the default). */
      launch?: (argv: readonly string[]) => Launch;
      /** Bash run first in every new shell (the sandbox's resource limits); a failure ends the shell. */
      prelude?: string;
      /** Called once the first shell runs (inside the sandbox: every mount is made), or it ended before. */
      onReady?: () => void;
      /**
       * Start the shell once only (a sandboxed one: its sandbox was planned for that start): a command
       * that finds it ended is not run (`SessionOutcome.ended`), and the session is started afresh from a new plan.
       */
      startOnce?: boolean;
    },
  ) {}

  /** Runs one command after those already queued. */
  run(command: string, opts: { timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal; resetTo?: string }): Promise<SessionOutcome> {
    const next = this.queue.then(() => this.runNow(command, opts));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Whether the shell has ended since its last command (exited, timed out, killed): the next would start a new one. */
  get ended(): boolean {
    return this.child === undefined && !this.fresh;
  }

  /** Ends the session shell and everything it started; resolves once the shell's process has exited. */
  dispose(): Promise<void> {
    const child = this.child;
    this.signalGroup('SIGKILL');
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once('exit', () => resolve()));
  }

  private start(): ChildProcess {
    // The session's group dies with this process however it ends (see ProcessGroups).
    const groups = ProcessGroups.shared();
    groups.prepare();
    let launch: Launch;
    try {
      launch = (this.options.launch ?? unsandboxedCommand)(['/bin/bash', '--noprofile', '--norc', '-f', '-P', '-s']);
    } catch (error) {
      // No sandbox was made: the commands paused for it run on.
      this.awaitingReady = true;
      this.ready();
      throw error;
    }
    let spawned: ChildProcess;
    try {
      spawned = spawn(launch.file, launch.args, {
        cwd: this.options.root,
        env: this.options.env,
        detached: true,
        stdio: launchStdio(launch, ['pipe', 'pipe', 'pipe', 'pipe']),
      });
    } finally {
      closeLaunchDescriptors(launch); // the child holds its own copies
    }
    // Its standard streams are pipes (stdio above).
    const child = spawned as ChildProcess & { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
    writeInput(child, launch);
    const pid = child.pid;
    if (pid !== undefined) this.registered = groups.add(pid);
    this.leaderStart = pid !== undefined ? startTime(pid) : undefined;
    this.exitReason = undefined;
    this.control = '';
    this.awaitingReady = true;
    child.stdout.on('data', (chunk: Buffer) => this.onOutput('stdout', chunk));
    child.stderr.on('data', (chunk: Buffer) => this.onOutput('stderr', chunk));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => this.onControl(chunk.toString('utf8')));
    // Output is read while a command waits for it; between commands what the session's background processes print
    // waits in the pipe (which then holds them up) for the next command, instead of the host reading and dropping a
    // flood at full speed for the session's life.
    this.hold(child);
    child.stdin.on('error', () => undefined); // EPIPE when the shell died: reported through 'exit'
    // Its first line says it runs (a line on the control pipe, before any command may write there).
    child.stdin.write(`printf 'ready\\n' >&3\n`);
    if (this.options.prelude) child.stdin.write(`${this.options.prelude.replace(/;\s*$/, '')}\n`);
    child.on('exit', (code, signal) => {
      this.ready();
      this.exitReason = { code, signal };
      // Read what is left to its end, so the pipes close (held, they would stay open with the shell gone).
      child.stdout.resume();
      child.stderr.resume();
      this.signalGroup('SIGKILL', pid, true);
      if (pid !== undefined) groups.remove(pid);
      if (this.child === child) this.child = undefined;
      if (this.killing) clearTimeout(this.killing);
      this.killing = undefined;
      // A command still waiting ends with the shell.
      setImmediate(() => this.finish(true));
    });
    this.fresh = true;
    return child;
  }

  private runNow(command: string, opts: { timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal; resetTo?: string }): Promise<SessionOutcome> {
    const restarted = this.child === undefined && !this.fresh;
    if (restarted && this.options.startOnce)
      return Promise.resolve({
        exitCode: null,
        signal: null,
        stdout: new HeadTailBuffer(0),
        stderr: new HeadTailBuffer(0),
        timedOut: false,
        cancelled: false,
        durationMs: 0,
        cwd: this.options.root,
        restarted: true,
        ended: true,
      });
    const child = this.child ?? (this.child = this.start());
    this.fresh = false;
    const nonce = randomBytes(12).toString('hex');
    return new Promise<SessionOutcome>((resolve) => {
      let timedOut = false;
      let cancelled = false;
      const pending: Pending = {
        nonce,
        marker: Buffer.from(`\n\0TW:${nonce}\n`),
        stdout: new HeadTailBuffer(opts.maxOutputBytes),
        stderr: new HeadTailBuffer(opts.maxOutputBytes),
        held: { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) },
        done: { stdout: false, stderr: false },
        started: performance.now(),
        resolve: (outcome) => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          resolve({ ...outcome, timedOut, cancelled, restarted: restarted || outcome.restarted });
        },
      };
      this.pending = pending;
      child.stdout!.resume();
      child.stderr!.resume();
      const end = () => this.terminate();
      const timer = setTimeout(() => {
        timedOut = true;
        end();
      }, opts.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        end();
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const reset = opts.resetTo ? `__tw_to='${opts.resetTo.replace(/'/g, `'\\''`)}'; cd -- "$__tw_to" && [ "$(pwd -P)" = "$__tw_to" ] || exit 1\n` : '';
      const script =
        `${reset}IFS= read -r -d '' __tw_cmd <<'__TW_${nonce}'\n${command}\n__TW_${nonce}\n` +
        `eval "$__tw_cmd" </dev/null 3>&-; __tw_s=$?\n` +
        `printf '\\n\\0TW:%s\\n' ${nonce}; printf '\\n\\0TW:%s\\n' ${nonce} >&2; printf '%s\\t%s\\t%s\\n' ${nonce} "$__tw_s" "$(pwd -P)" >&3\n`;
      void this.registered.then(() => child.stdin!.write(script));
      if (opts.signal?.aborted) onAbort();
    });
  }

  private onOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    const pending = this.pending;
    if (!pending || pending.done[stream]) return;
    const data = pending.held[stream].length ? Buffer.concat([pending.held[stream], chunk]) : chunk;
    const at = data.indexOf(pending.marker);
    if (at !== -1) {
      pending[stream].push(data.subarray(0, at));
      pending.held[stream] = Buffer.alloc(0);
      pending.done[stream] = true;
      this.finish(false);
      return;
    }
    // Hold back what could be the start of the marker; pass the rest on (the cap applies as it streams).
    const keep = Math.min(data.length, pending.marker.length - 1);
    pending[stream].push(data.subarray(0, data.length - keep));
    pending.held[stream] = Buffer.from(data.subarray(data.length - keep));
  }

  /** The first shell runs (or ended first): `onReady` once, for the first shell only (a restart is no new sandbox). */
  private ready(): void {
    if (!this.awaitingReady) return;
    this.awaitingReady = false;
    if (this.readyTold) return;
    this.readyTold = true;
    this.options.onReady?.();
  }

  /**
   * The shell's status line after each command (`<nonce>\t<status>\t<pwd -P>`). A command's background process can
   * write to the control pipe too (bash keeps copies of the descriptor): a thirteenth pass flooded it with `yes`,
   * and the host buffered a gigabyte at full CPU while every later call came back without a status. Only the line
   * the waiting command's nonce opens counts; anything else — a line no command waits for, another nonce, more
   * than a status line holds — means the session's channel is not the shell's alone any more, and it is ended
   * (the next call gets a fresh shell, and says so).
   */
  private onControl(text: string): void {
    this.control += text;
    if (this.control.length > MAX_CONTROL_CHARS) return this.forged();
    if (this.awaitingReady) {
      const newline = this.control.indexOf('\n');
      if (newline === -1) return;
      if (this.control.slice(0, newline) !== 'ready') return this.forged();
      this.control = this.control.slice(newline + 1);
      this.ready();
    }
    const newline = this.control.indexOf('\n');
    if (newline === -1) return;
    const pending = this.pending;
    const [nonce, code, ...place] = this.control.slice(0, newline).split('\t');
    const cwd = place.join('\t');
    this.control = this.control.slice(newline + 1);
    if (!pending || nonce !== pending.nonce || !/^\d{1,3}$/.test(code ?? '') || !cwd.startsWith('/') || this.control !== '') return this.forged();
    pending.done.status = { code: Number(code), cwd };
    this.finish(false);
  }

  /** Stops reading the shell's output until a command waits for it. */
  private hold(child: ChildProcess): void {
    child.stdout?.pause();
    child.stderr?.pause();
  }

  /** Something besides the shell wrote to its control pipe: the session is ended (see `onControl`). */
  private forged(): void {
    this.control = '';
    this.terminate();
  }

  private finish(shellEnded: boolean): void {
    const pending = this.pending;
    if (!pending) return;
    const { done } = pending;
    if (!shellEnded && !(done.stdout && done.stderr && done.status)) return;
    this.pending = undefined;
    for (const stream of ['stdout', 'stderr'] as const) if (!done[stream] && pending.held[stream].length) pending[stream].push(pending.held[stream]);
    if (this.child) this.hold(this.child);
    pending.resolve({
      exitCode: done.status?.code ?? this.exitReason?.code ?? null,
      signal: done.status ? null : (this.exitReason?.signal ?? null),
      stdout: pending.stdout,
      stderr: pending.stderr,
      timedOut: false,
      cancelled: false,
      durationMs: Math.round(performance.now() - pending.started),
      cwd: done.status?.cwd ?? this.options.root,
      restarted: shellEnded,
    });
  }

  /** Ends the session: TERM to its process group, KILL after the grace period. */
  private terminate(): void {
    this.signalGroup('SIGTERM');
    this.killing ??= setTimeout(() => this.signalGroup('SIGKILL'), this.options.killGraceMs);
  }

  private signalGroup(signal: NodeJS.Signals, pid = this.child?.pid, leaderReaped = this.exitReason !== undefined): void {
    if (pid !== undefined) signalGroup(pid, signal, leaderReaped, this.leaderStart);
  }
}
