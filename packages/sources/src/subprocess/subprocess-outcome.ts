import os from 'node:os';
import type { ProcessOutcome } from '@toolwright/core-tools';
import type { GroupEvents } from '@toolwright/sandbox';
import { SourceError } from '../source-error.js';
import type { StdoutCollector } from './stdout-collector.js';
import { formatBytes, type SubprocessLimits } from './subprocess-limits.js';

/** How one call's program ended, as the runner saw it. */
export interface SubprocessEnding {
  outcome: ProcessOutcome;
  /** Its stdout, whole, or past the cap (`exceeded`: it was stopped there). */
  stdout: StdoutCollector;
  /** What the kernel counted for its processes together (its control group), where there was one. */
  events: GroupEvents | undefined;
  /** The call's signal: its reason tells a deadline from a cancellation. */
  signal: AbortSignal;
  limits: SubprocessLimits;
  /** Inside bubblewrap, a program killed by a signal reads as the exit status 128 + its number. */
  sandboxed: boolean;
  program: string;
}

/** Characters of the program's error output quoted in a failure. */
const STDERR_TAIL = 2000;

/** What a program prints when an allocation failed (Python, glibc, C++, Node, Go, Rust). */
const ALLOCATION_FAILED = /\bMemoryError\b|Cannot allocate memory|\bout of memory\b|std::bad_alloc|heap out of memory|memory allocation of \d+ bytes failed/i;
/** A write past RLIMIT_FSIZE with SIGXFSZ ignored (Python ignores it): EFBIG. */
const FILE_TOO_LARGE = /File too large|\bEFBIG\b/;
/** bash could not replace itself with the program (gone, or not executable, as the sandbox shows it). */
const EXEC_FAILED = /^toolwright-shell: line \d+: (?:exec: )?.*(?:not found|No such file or directory|Permission denied)$/m;

/**
 * The program's result — the JSON it printed — or the `SourceError` that says how it ended. A limit is named only on
 * the evidence: the kernel's count of the control group (memory kills, refused forks), the signal a limit sends
 * (SIGXCPU, SIGXFSZ), the host's own stop (the deadline, the output cap), or a failed exit whose error output says an
 * allocation or a write was refused under the cap. A SIGKILL that none of these explains is reported as such, with
 * what may have sent it.
 */
export function subprocessResult(ending: SubprocessEnding): unknown {
  const { outcome, limits, events } = ending;
  if (ending.stdout.exceeded)
    throw new SourceError('resource_exhausted', `the program printed more than its ${formatBytes(limits.maxOutputBytes)} output cap and was stopped`, 'output');
  if (outcome.timedOut || (outcome.cancelled && isDeadline(ending.signal)))
    throw new SourceError('resource_exhausted', `the program ran past the call's time limit and was stopped, with every process it started`, 'time');
  if (outcome.cancelled) throw new SourceError('cancelled', 'the call was cancelled, and the program was stopped with every process it started');
  const killedBy = terminatingSignal(outcome, ending.sandboxed);
  const tail = stderrTail(outcome);
  if (outcome.exitCode === 0 && killedBy === undefined) return parseOutput(ending.stdout.text(), ending.program);
  if ((events?.killedForMemory ?? 0) > 0)
    throw new SourceError(
      'resource_exhausted',
      `the program used more than its ${formatBytes(limits.memoryBytes)} memory cap, and the kernel killed it${tail}`,
      'memory',
    );
  if ((events?.processesRefused ?? 0) > 0)
    throw new SourceError(
      'resource_exhausted',
      `the program tried to run more than ${limits.processes} processes and threads at once; the kernel refused ${events!.processesRefused} more, and it failed${tail}`,
      'processes',
    );
  if (killedBy === 'SIGXCPU')
    throw new SourceError('resource_exhausted', `the program used more than its ${limits.cpuSeconds} CPU seconds and was stopped (SIGXCPU)`, 'cpu');
  if (killedBy === 'SIGXFSZ')
    throw new SourceError(
      'resource_exhausted',
      `the program wrote a file past its ${formatBytes(limits.fileSizeBytes)} file size cap and was stopped (SIGXFSZ)`,
      'file_size',
    );
  if (killedBy === 'SIGKILL')
    throw new SourceError(
      'source_failed',
      `the program was killed (SIGKILL), not by Toolwright's own stop nor by the memory limit of its group: by the host's out-of-memory killer, by the hard CPU limit (${limits.cpuSeconds + 1} seconds) had it ignored SIGXCPU, or by another process${tail}`,
    );
  if (killedBy !== undefined) throw new SourceError('source_failed', `the program was killed by ${killedBy}${tail}`);
  const stderr = programStderr(outcome);
  if (ALLOCATION_FAILED.test(stderr))
    throw new SourceError(
      'resource_exhausted',
      `the program could not allocate memory within its ${formatBytes(limits.memoryBytes)} cap and exited with code ${outcome.exitCode}${tail}`,
      'memory',
    );
  if (FILE_TOO_LARGE.test(stderr))
    throw new SourceError(
      'resource_exhausted',
      `the program wrote a file past its ${formatBytes(limits.fileSizeBytes)} file size cap and exited with code ${outcome.exitCode}${tail}`,
      'file_size',
    );
  if ((outcome.exitCode === 126 || outcome.exitCode === 127) && EXEC_FAILED.test(stderr))
    throw new SourceError('not_found', `the program '${ending.program}' could not be started${tail}`);
  throw new SourceError('source_failed', `the program exited with code ${outcome.exitCode ?? 'unknown'}${tail || ' and wrote nothing to stderr'}`);
}

function parseOutput(text: string, program: string): unknown {
  if (text.trim() === '') throw new SourceError('invalid_output', `the program '${program}' printed nothing: it must print its result as JSON on stdout`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const start = text.trim();
    throw new SourceError(
      'invalid_output',
      `the program '${program}' printed something that is not JSON (it must print its result as one JSON value on stdout): ${JSON.stringify(start.slice(0, 200))}${start.length > 200 ? '…' : ''}`,
    );
  }
}

function isDeadline(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/** The signal that ended the program: told by Node, or by bubblewrap's exit status (128 + the signal's number). */
function terminatingSignal(outcome: ProcessOutcome, sandboxed: boolean): string | undefined {
  if (outcome.signal) return outcome.signal;
  if (!sandboxed || outcome.exitCode === null || outcome.exitCode <= 128) return undefined;
  const number = outcome.exitCode - 128;
  return Object.entries(os.constants.signals).find(([, value]) => value === number)?.[0];
}

/** The end of the program's error output, as a clause to append (empty when it wrote none). */
function stderrTail(outcome: ProcessOutcome): string {
  const text = programStderr(outcome).trim();
  if (text === '') return '';
  return `; its error output ends: ${text.length > STDERR_TAIL ? `…${text.slice(-STDERR_TAIL)}` : text}`;
}

/** The error output the program left (its tail is quoted in a failure). */
function programStderr(outcome: ProcessOutcome): string {
  return outcome.stderr.text();
}
