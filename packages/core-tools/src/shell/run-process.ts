import { spawn, type ChildProcess } from 'node:child_process';
import { HeadTailBuffer } from './output-buffer.js';
import {
  closeLaunchDescriptors,
  launchStdio,
  namespaceEnded,
  namespaceInit,
  ProcessGroups,
  signalGroup,
  startTime,
  unsandboxedCommand,
  type Launch,
  type NamespaceInit,
} from '@toolwright/sandbox';

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
  /** How the shell is started: inside the kernel sandbox, or as it is (the default). */
  launch?: (argv: readonly string[]) => Launch;
  /** Bash run before anything else (the sandbox's resource limits); a failure stops the command. */
  prelude?: string;
  /** Called once the shell runs (inside the sandbox: every mount is made), or it ended before. */
  onReady?: () => void;
  /** Written to the command's stdin, which is then closed (without it, stdin is closed from the start). */
  stdin?: string | Buffer;
  /** Called with each chunk of stdout once it is kept (a caller that caps the output stops the command there). */
  onStdout?: (chunk: Buffer) => void;
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

/** Says it runs (a byte on fd 3), then runs `$1` once the host opens the gate on fd 3 (and never if the gate closes unopened). */
const READY = 'printf r >&3 || exit 125;';
const GATED = 'IFS= read -r -n 1 go <&3 && [ "$go" = 1 ] || exit 125; exec 3<&-; eval "$1"';

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
  private leaderStart: string | undefined;
  exited = false;

  constructor(private readonly options: ProcessOptions) {
    this.stdout = new HeadTailBuffer(options.maxOutputBytes);
    this.stderr = new HeadTailBuffer(options.maxOutputBytes);
    // bash without start-up files: no profile, no rc, no BASH_ENV (the environment is built from an
    // allowlist) — a planted .bashrc or alias cannot change what runs — and without pathname
    // expansion (-f): the command line arrives with every word already expanded and quoted. Its own
    // process group (detached) so the whole tree can be signalled; stdin is closed (or given `stdin`).
    // The group is registered with the watchdog before the command may start: bash waits at a gate (fd 3) that
    // opens only once the registration has reached the watchdog, and a host that dies before that
    // closes the gate, so the command never runs unwatched.
    const groups = ProcessGroups.shared();
    groups.prepare();
    const launch = (options.launch ?? unsandboxedCommand)([
      '/bin/bash',
      '--noprofile',
      '--norc',
      '-f',
      '-P',
      '-c',
      `${READY}${options.prelude ?? ''}${GATED}`,
      'toolwright-shell',
      options.command,
    ]);
    try {
      this.child = spawn(launch.file, launch.args, {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: launchStdio(launch, [options.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe']),
      });
    } finally {
      closeLaunchDescriptors(launch); // the child holds its own copies
    }
    writeInput(this.child, launch);
    if (options.stdin !== undefined && this.child.stdin) {
      this.child.stdin.on('error', () => undefined); // EPIPE when the command never read it: reported through 'exit'
      this.child.stdin.end(options.stdin);
    }
    const contained = launch.contained === true;
    const pid = this.child.pid;
    this.leaderStart = pid !== undefined ? startTime(pid) : undefined;
    // fd 3 is a socket pair: the shell's first byte says it runs, the host's byte opens the gate.
    const gate = this.child.stdio[3] as NodeJS.ReadWriteStream | null;
    gate?.on('error', () => undefined); // EPIPE when bash died first: reported through 'exit'
    let ready = false;
    // In a sandbox: its namespace's first process, read once the shell inside runs (it exists then), to wait for.
    let init: NamespaceInit | undefined;
    const onReady = () => {
      if (ready) return;
      ready = true;
      if (contained && pid !== undefined && !this.exited) init = namespaceInit(pid);
      options.onReady?.();
    };
    gate?.once('data', onReady);
    if (pid !== undefined) void groups.add(pid).then(() => gate?.end('1'));
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout.push(chunk);
      options.onStdout?.(chunk);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    const timer = setTimeout(() => {
      this.timedOut = true;
      this.kill();
    }, options.timeoutMs);
    const onAbort = () => {
      this.cancelled = true;
      this.kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    this.done = new Promise<ProcessOutcome>((resolve) => {
      let exit: { code: number | null; signal: string | null } | undefined;
      const finish = async () => {
        clearTimeout(timer);
        if (this.killing) clearTimeout(this.killing);
        options.signal?.removeEventListener('abort', onAbort);
        // Bubblewrap has told the command's end; the kernel may still be ending the rest of its sandbox: the result
        // waits until nothing the command started runs.
        if (init && !(await namespaceEnded(init)))
          this.stderr.push(Buffer.from('[processes of this command were still ending when this result was written: it may still change files for a moment]\n'));
        resolve({
          exitCode: exit?.code ?? null,
          signal: exit?.signal ?? null,
          stdout: this.stdout,
          stderr: this.stderr,
          timedOut: this.timedOut,
          cancelled: this.cancelled,
          durationMs: Math.round(performance.now() - this.started),
        });
      };
      this.child.on('error', (error) => {
        onReady();
        this.stderr.push(Buffer.from(`could not start the shell: ${error.message}\n`));
        exit = { code: 127, signal: null };
        void finish();
      });
      this.child.on('exit', (code, signal) => {
        onReady();
        exit = { code, signal };
        this.exited = true;
        // Nothing the command started may outlive it: descendants still holding the pipes are killed (in a
        // sandbox the kernel has killed them: see `Launch.contained`), and the group leaves the registry at once
        // (its leader is reaped: its number may be reused).
        if (!contained) this.signalGroup('SIGKILL');
        if (pid !== undefined) groups.remove(pid);
      });
      this.child.on('close', () => void finish());
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
    if (this.child.pid !== undefined) signalGroup(this.child.pid, signal, this.exited, this.leaderStart);
  }
}

/** Hands the launch's `input` to the program's descriptor 4 and closes it (an error means the program died first: reported through 'exit'). */
export function writeInput(child: ChildProcess, launch: Launch): void {
  const channel = child.stdio[4] as NodeJS.WritableStream | null | undefined;
  if (!launch.input || !channel) return;
  channel.on('error', () => undefined);
  channel.end(launch.input);
}
