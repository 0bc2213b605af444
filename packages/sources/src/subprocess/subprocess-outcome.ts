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
  /** The arguments the program was given (the model chose them): error output that quotes them is no evidence. */
  input: unknown;
}

/** Characters of the program's error output quoted in a failure. */
const STDERR_TAIL = 2000;

/** What a program prints when an allocation failed (Python, glibc, C++, Node, Go, Rust). */
const ALLOCATION_FAILED = /\bMemoryError\b|Cannot allocate memory|\bout of memory\b|std::bad_alloc|heap out of memory|memory allocation of \d+ bytes failed/i;
/** A write past RLIMIT_FSIZE with SIGXFSZ ignored (Python ignores it): EFBIG. */
const FILE_TOO_LARGE = /File too large|\bEFBIG\b/;

/**
 * The program's result — the JSON it printed — or the `SourceError` that says how it ended. A limit (and `not_found`)
 * is named only on evidence the model's arguments cannot forge: the kernel's count of the control group (memory kills,
 * refused forks), the host's own stop (the deadline, the output cap), SIGXCPU only after a run long enough to have
 * used the CPU seconds, and words of the error output only on its last line and only when the arguments do not hold
 * them (a program commonly quotes the input it rejects). Without such evidence the failure is `source_failed`, with
 * the end of the error output.
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
  if (killedBy === 'SIGXCPU' && cpuLimitReachable(outcome.durationMs, limits.cpuSeconds))
    throw new SourceError('resource_exhausted', `the program used more than its ${limits.cpuSeconds} CPU seconds and was stopped (SIGXCPU)`, 'cpu');
  if (killedBy === 'SIGXCPU')
    throw new SourceError(
      'source_failed',
      `the program ended ${endedBy(outcome, killedBy)} after ${Math.round(outcome.durationMs)} ms, too soon to have used its ${limits.cpuSeconds} CPU seconds: not by its CPU limit${tail}`,
    );
  // Python and most runtimes ignore SIGXFSZ and fail with EFBIG (below); inside the sandbox, exit code 153 is no proof.
  if (killedBy === 'SIGXFSZ' && outcome.signal)
    throw new SourceError(
      'resource_exhausted',
      `the program wrote a file past its ${formatBytes(limits.fileSizeBytes)} file size cap and was stopped (SIGXFSZ)`,
      'file_size',
    );
  if (killedBy === 'SIGXFSZ')
    throw new SourceError(
      'source_failed',
      `the program ended ${endedBy(outcome, killedBy)}: a write past its ${formatBytes(limits.fileSizeBytes)} file size cap, or its own exit code${tail}`,
    );
  if (killedBy === 'SIGKILL')
    throw new SourceError(
      'source_failed',
      `the program was killed (SIGKILL), not by Toolwright's own stop nor by the memory limit of its group: by the host's out-of-memory killer, by the hard CPU limit (${limits.cpuSeconds + 1} seconds) had it ignored SIGXCPU, or by another process${tail}`,
    );
  if (killedBy !== undefined) throw new SourceError('source_failed', `the program was killed by ${killedBy}${tail}`);
  const lastLine = lastStderrLine(outcome);
  if (unforged(ALLOCATION_FAILED, lastLine, ending.input))
    throw new SourceError(
      'resource_exhausted',
      `the program could not allocate memory within its ${formatBytes(limits.memoryBytes)} cap and exited with code ${outcome.exitCode}${tail}`,
      'memory',
    );
  if (unforged(FILE_TOO_LARGE, lastLine, ending.input))
    throw new SourceError(
      'resource_exhausted',
      `the program wrote a file past its ${formatBytes(limits.fileSizeBytes)} file size cap and exited with code ${outcome.exitCode}${tail}`,
      'file_size',
    );
  if ((outcome.exitCode === 126 || outcome.exitCode === 127) && unforged(execFailed(ending.program), lastLine, ending.input))
    throw new SourceError('not_found', `the program '${ending.program}' could not be started${tail}`);
  throw new SourceError('source_failed', `the program exited with code ${outcome.exitCode ?? 'unknown'}${tail || ' and wrote nothing to stderr'}`);
}

/** How a signal was seen: sent to the program, or read from the sandbox's exit code (which the program may choose). */
function endedBy(outcome: ProcessOutcome, signal: string): string {
  return outcome.signal ? `by ${signal}` : `with exit code ${outcome.exitCode} (the sandbox's way of saying ${signal})`;
}

/**
 * Whether a process could have used `cpuSeconds` of CPU in `durationMs`: RLIMIT_CPU counts a process's threads
 * together, so on n CPUs it is reached no sooner than `cpuSeconds / n` seconds of wall-clock time.
 */
function cpuLimitReachable(durationMs: number, cpuSeconds: number): boolean {
  return durationMs >= (cpuSeconds * 1000) / os.availableParallelism();
}

/** bash's own words when it could not replace itself with `program` (gone, or not executable, as the sandbox shows it). */
function execFailed(program: string): RegExp {
  const name = program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^toolwright-shell: line \\d+: (?:exec: )?${name}: (?:.*: )?(?:not found|No such file or directory|Permission denied)$`);
}

/** Whether `line` holds `pattern` in words that are not the arguments' own (compared case-insensitively). */
function unforged(pattern: RegExp, line: string, input: unknown): boolean {
  const match = pattern.exec(line)?.[0];
  if (match === undefined) return false;
  const words = match.toLowerCase();
  return ![JSON.stringify(input) ?? '', ...stringsOf(input)].some((text) => text.toLowerCase().includes(words));
}

/** Every string in a JSON value, keys included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (Array.isArray(value) ? stringsOf(item) : [key, ...stringsOf(item)]));
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

/** The last line of the program's error output that is not blank. */
function lastStderrLine(outcome: ProcessOutcome): string {
  const lines = programStderr(outcome)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
  return lines[lines.length - 1] ?? '';
}

/** The error output the program left (its tail is quoted in a failure). */
function programStderr(outcome: ProcessOutcome): string {
  return outcome.stderr.text();
}
