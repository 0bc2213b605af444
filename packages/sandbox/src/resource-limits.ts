import fs from 'node:fs';
import { systemProgram } from './system-programs.js';

/**
 * What a sandboxed command may use. Each process's limits are set with `setrlimit` before the command
 * starts (hard and soft alike, so it cannot raise them); where the host can make control groups
 * (`controlGroupSupport`), the processes and the memory are also counted for the command as a whole.
 */
export interface ResourceLimits {
  /** CPU seconds each process may use (RLIMIT_CPU; SIGXCPU, then SIGKILL). */
  cpuSeconds: number;
  /**
   * Bytes of memory: all the command's processes together in its control group (the kernel kills one
   * when they would use more), and each process's data (RLIMIT_DATA: heap and private writable mappings).
   */
  memoryBytes: number;
  /** Largest file a process may write, in bytes (RLIMIT_FSIZE; a write past it fails with EFBIG). */
  fileSizeBytes: number;
  /**
   * Processes and threads the command may run at once: counted by its control group (a fork past it
   * fails), and by RLIMIT_NPROC (inside the sandbox's user namespace; where bubblewrap makes none,
   * above the user's processes already running), which the kernel does not apply to root.
   */
  processes: number;
  /** Open files per process (RLIMIT_NOFILE). */
  openFiles: number;
}

export const DEFAULT_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  cpuSeconds: 600,
  memoryBytes: 4 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  processes: 256,
  openFiles: 1024,
});

/** Each limit must be a positive whole number; the first one that is not, named, or undefined. */
export function limitsProblem(limits: Partial<ResourceLimits>): string | undefined {
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (!(name in DEFAULT_LIMITS)) return `'${name}' is not a resource limit (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      return `the limit '${name}' must be a whole number of at least 1, not ${String(value)}`;
  }
  return undefined;
}

/** Signals a command's processes may have queued at once (RLIMIT_SIGPENDING): far more than any program keeps pending. */
export const PENDING_SIGNALS = 1024;

/**
 * The bash line that applies the limits, put first in a sandboxed script: bash's `ulimit` builtin is
 * setrlimit, and `-H -S` sets both values, so nothing inside can raise them. A limit the kernel
 * refuses (a hard limit already lower) stops the command rather than running it unlimited.
 * `runningProcesses`: the user's processes that count against the process limit besides the
 * command's own (undefined: no process limit, as for root).
 * No core files: where the command was started through `withoutCoreFiles` the core size is 1 byte already, else
 * the line sets 0 (`ulimit` counts in KiB, so it cannot ask for 1 byte).
 * Pending signals (`-i`, RLIMIT_SIGPENDING) are `PENDING_SIGNALS` at most: the kernel counts queued signals per
 * user for the whole machine, and a command that queued real-time signals to itself until the host's limit (96,364
 * here) left every process of the user unable to make a timer while it lived (a red-team pass); the limit is checked
 * against the count of the sandbox's own user namespace, so each command queues this many at most.
 * @example ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -i 1024 -u 256 || exit 126;
 */
export function limitsPrelude(limits: ResourceLimits, runningProcesses: number | undefined, hard: HardLimits = hostHardLimits(), coreLimited = false): string {
  const kib = (bytes: number) => Math.max(1, Math.floor(bytes / 1024));
  const within = (value: number, cap: number | undefined) => (cap !== undefined ? Math.min(value, cap) : value);
  const flags = [
    `-t ${within(limits.cpuSeconds, hard.cpu)}`,
    `-d ${kib(within(limits.memoryBytes, hard.data))}`,
    `-f ${kib(within(limits.fileSizeBytes, hard.fsize))}`,
    `-n ${within(limits.openFiles, hard.nofile)}`,
    `-i ${within(PENDING_SIGNALS, hard.sigpending)}`,
    ...(runningProcesses !== undefined ? [`-u ${within(runningProcesses + limits.processes, hard.nproc)}`] : []),
  ].join(' ');
  return `ulimit -H -S ${flags}${coreLimited ? '' : ' -c 0'} || exit 126;`;
}

/**
 * `file` with `args`, started with no core files through `prlimit --core=1:1` (`prlimit` from util-linux sets the
 * limit and then runs the program): a core size of 1 byte is the value at which the kernel also skips a
 * `core_pattern` that pipes to a program (which it would run on the host, as root, with the crashed command's
 * memory on its input; a limit of 0 stops only core files). Set before bubblewrap starts, hard and soft, it holds
 * for everything inside, and costs no program started inside. Undefined where the system has no `prlimit` or
 * the host's hard limit is 0 (it cannot be raised to 1): the prelude sets 0 then.
 */
export function withoutCoreFiles(file: string, args: readonly string[], hard: HardLimits = hostHardLimits()): { file: string; args: string[] } | undefined {
  if (hard.core === 0) return undefined;
  const prlimit = prlimitProgram();
  return prlimit ? { file: prlimit, args: ['--core=1:1', '--', file, ...args] } : undefined;
}

let prlimit: { file: string | undefined } | undefined;

/** `prlimit` from the system's program folders (never through PATH), looked for once. */
function prlimitProgram(): string | undefined {
  return (prlimit ??= { file: systemProgram('prlimit') }).file;
}

/** The host's hard limits that a command cannot be given more than (undefined: unlimited or unknown). */
export interface HardLimits {
  core?: number;
  cpu?: number;
  data?: number;
  fsize?: number;
  nofile?: number;
  nproc?: number;
  sigpending?: number;
}

const LIMIT_ROWS: Record<string, keyof HardLimits> = {
  'Max core file size': 'core',
  'Max cpu time': 'cpu',
  'Max data size': 'data',
  'Max file size': 'fsize',
  'Max open files': 'nofile',
  'Max processes': 'nproc',
  'Max pending signals': 'sigpending',
};

let hardLimits: HardLimits | undefined;

/** This process's hard limits, read once from `/proc/self/limits` (children inherit them). */
function hostHardLimits(): HardLimits {
  if (hardLimits) return hardLimits;
  const found: HardLimits = {};
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    // Not Linux, or no /proc: the limits are asked for as configured.
  }
  for (const line of text.split('\n')) {
    const key = Object.keys(LIMIT_ROWS).find((row) => line.startsWith(row));
    if (!key) continue;
    const hard = line.slice(key.length).trim().split(/\s+/)[1];
    if (hard !== undefined && /^\d+$/.test(hard)) found[LIMIT_ROWS[key]!] = Number(hard);
  }
  return (hardLimits = found);
}
