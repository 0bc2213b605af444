import { limitsProblem, type ResourceLimits } from '@toolwright/sandbox';
import { SourceError } from '../source-error.js';
import type { SourceRequest } from '../source-request.js';
import type { SubprocessToolOptions } from '../source-options.js';

/** What one call of a subprocess tool may use: the process limits, and the largest result it may print. */
export interface SubprocessLimits extends ResourceLimits {
  maxOutputBytes: number;
}

export const SUBPROCESS_DEFAULTS = Object.freeze({
  cpuSeconds: 60,
  memoryBytes: 512 * 1024 ** 2,
  fileSizeBytes: 64 * 1024 ** 2,
  processes: 32,
  openFiles: 1024,
  maxOutputBytes: 4 * 1024 ** 2,
});

/**
 * The call's limits: the tool's options over the defaults (memory is the tool's `maxMemory`). Each must be a whole
 * number of at least 1, or the tool's options are invalid (`invalid_config`).
 */
export function subprocessLimits(request: SourceRequest<unknown, SubprocessToolOptions>): SubprocessLimits {
  const { options } = request;
  const limits: SubprocessLimits = {
    cpuSeconds: options.cpuSeconds ?? SUBPROCESS_DEFAULTS.cpuSeconds,
    memoryBytes: request.declaration.metadata.resources.maxMemoryBytes ?? SUBPROCESS_DEFAULTS.memoryBytes,
    fileSizeBytes: options.fileSizeBytes ?? SUBPROCESS_DEFAULTS.fileSizeBytes,
    processes: options.processes ?? SUBPROCESS_DEFAULTS.processes,
    openFiles: SUBPROCESS_DEFAULTS.openFiles,
    maxOutputBytes: options.maxOutputBytes ?? SUBPROCESS_DEFAULTS.maxOutputBytes,
  };
  const { maxOutputBytes, ...resources } = limits;
  const problem =
    limitsProblem(resources) ??
    (Number.isSafeInteger(maxOutputBytes) && maxOutputBytes >= 1
      ? undefined
      : `the limit 'maxOutputBytes' must be a whole number of at least 1, not ${String(maxOutputBytes)}`);
  if (problem) throw new SourceError('invalid_config', `the subprocess tool '${request.tool}' has an invalid limit: ${problem}`);
  return limits;
}

/** A byte count as people read it: `512 MB`, `64 KB`, `1000 bytes`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes >= size && bytes % (size / 16) === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
