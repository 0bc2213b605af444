import { spawn, type ChildProcess } from 'node:child_process';
import { HeadTailBuffer } from './output-buffer.js';
import { ProcessGroups } from './process-groups.js';

export interface ProcessOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Bytes of stdout and of stderr kept, each (head and tail). */
  maxOutputBytes: number;
  /** Between SIGTERM and SIGKILL when the deadline passes or the call is cancelled. */
  killGraceMs: number;
  signal?: AbortSignal;
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: HeadTailBuffer;
  stderr: HeadTailBuffer;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
}

/** A running command: its process group, its captured output, and how it ended. */
export class RunningProcess {
  readonly stdout: HeadTailBuffer;
  readonly stderr: HeadTailBuffer;
  readonly done: Promise<ProcessOutcome>;
  private readonly child: ChildProcess;
  private readonly started = performance.now();
  private killing: NodeJS.Timeout | undefined;
  private timedOut = false;
  private cancelled = false;
  exited = false;

  constructor(private readonly options: ProcessOptions) {
    this.stdout = new HeadTailBuffer(options.maxOutputBytes);
    this.stderr = new HeadTailBuffer(options.maxOutputBytes);
    // bash without start-up files: no profile, no rc, no BASH_ENV (the environment is built from an
    // allowlist) — a planted .bashrc or alias cannot change what runs — and without pathname
    // expansion (-f): the command line arrives with every word already expanded and quoted. Its own
    // process group (detached) so the whole tree can be signalled, and registered so that the group
    // dies with this process however it ends; stdin is closed.
    this.child = spawn('/bin/bash', ['--noprofile', '--norc', '-f', '-c', options.command], {
      cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const groups = ProcessGroups.shared();
    const pid = this.child.pid;
    if (pid !== undefined) groups.add(pid);
    this.child.stdout!.on('data', (chunk: Buffer) => this.stdout.push(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    const timer = setTimeout(() => { this.timedOut = true; this.kill(); }, options.timeoutMs);
    const onAbort = () => { this.cancelled = true; this.kill(); };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    this.done = new Promise<ProcessOutcome>((resolve) => {
      let exit: { code: number | null; signal: string | null } | undefined;
      const finish = () => {
        clearTimeout(timer);
        if (this.killing) clearTimeout(this.killing);
        options.signal?.removeEventListener('abort', onAbort);
        resolve({
          exitCode: exit?.code ?? null, signal: exit?.signal ?? null, stdout: this.stdout, stderr: this.stderr,
          timedOut: this.timedOut, cancelled: this.cancelled, durationMs: Math.round(performance.now() - this.started),
        });
      };
      this.child.on('error', (error) => {
        this.stderr.push(Buffer.from(`could not start the shell: ${error.message}\n`));
        exit = { code: 127, signal: null };
        finish();
      });
      this.child.on('exit', (code, signal) => {
        exit = { code, signal };
        this.exited = true;
        // Nothing the command started may outlive it: descendants still holding the pipes are killed.
        this.signalGroup('SIGKILL');
      });
      this.child.on('close', () => {
        if (pid !== undefined) {
          this.signalGroup('SIGKILL');
          groups.remove(pid);
        }
        finish();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** TERM to the whole process group, then KILL after the grace period. */
  kill(): void {
    if (this.killing) return;
    this.signalGroup('SIGTERM');
    this.killing = setTimeout(() => this.signalGroup('SIGKILL'), this.options.killGraceMs);
    this.killing.unref?.();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}
