import type { Integer } from '@toolwright/tool';
import { outputBudget } from '../model-text/output-budget.js';
import { fitStreams } from './fit-streams.js';
import type { HeadTailBuffer } from './output-buffer.js';
import type { ProcessOutcome } from './run-process.js';

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
  /**
   * Where the command ran: `sandbox` (the kernel sandbox: only the workspace is writable, nothing outside it
   * is visible, no network), `host` (no sandbox here or configured), `escalated` (outside the sandbox, as a
   * person approved).
   */
  ranIn?: 'sandbox' | 'host' | 'escalated';
  /**
   * Resource limits of the sandbox the command's processes ran into (a fork refused at the process
   * limit, a process killed at the memory limit), each worded with the limit.
   */
  limitsReached?: string[];
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

/** Room kept for the status line and notes around the output blocks. */
const HEADER_ROOM = 400;

/** What the model reads of both streams: each buffer's text, cut to the call's output budget. */
export function fittedStreams(stdout: HeadTailBuffer, stderr: HeadTailBuffer, reserved = 0): [string, string, boolean] {
  const out = { text: stdout.text(), totalBytes: stdout.totalBytes };
  const err = { text: stderr.text(), totalBytes: stderr.totalBytes };
  const fitted = fitStreams(out, err, outputBudget() - HEADER_ROOM - reserved);
  return fitted ? [...fitted, true] : [out.text, err.text, stdout.truncated || stderr.truncated];
}

/** The outcome as a result, its streams fitted to the output budget less `reserved` (text added around them). */
export function toResult(outcome: ProcessOutcome, reserved = 0): ShellResult {
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
