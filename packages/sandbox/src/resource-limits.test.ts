import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitsPrelude, limitsProblem } from './resource-limits.js';

describe(limitsPrelude, () => {
  it('sets hard and soft limits together, in the units ulimit takes, and never above the host hard limit', () => {
    expect(limitsPrelude(DEFAULT_LIMITS, undefined, {})).toBe(
      'prlimit --pid $$ --core=1:1 2>/dev/null && ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 || ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -c 0 || exit 126;',
    );
    expect(limitsPrelude(DEFAULT_LIMITS, 0, {})).toBe(
      'prlimit --pid $$ --core=1:1 2>/dev/null && ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -u 256 || ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -u 256 -c 0 || exit 126;',
    );
    expect(limitsPrelude(DEFAULT_LIMITS, 40, { nofile: 512, cpu: 60 })).toBe(
      'prlimit --pid $$ --core=1:1 2>/dev/null && ulimit -H -S -t 60 -d 4194304 -f 1048576 -n 512 -u 296 || ulimit -H -S -t 60 -d 4194304 -f 1048576 -n 512 -u 296 -c 0 || exit 126;',
    );
  });
});

describe(limitsProblem, () => {
  it.for([
    [{ cpuSeconds: 0 }, "the limit 'cpuSeconds' must be a whole number of at least 1, not 0"],
    [{ memoryBytes: 1.5 }, "the limit 'memoryBytes' must be a whole number of at least 1, not 1.5"],
    [{ memory: 1 }, "'memory' is not a resource limit (known: cpuSeconds, memoryBytes, fileSizeBytes, processes, openFiles)"],
  ] as const)('%o: %s', ([limits, problem]) => {
    expect(limitsProblem(limits as never)).toBe(problem);
  });
  it('accepts whole positive numbers', () => expect(limitsProblem({ cpuSeconds: 5, processes: 10 })).toBeUndefined());
});
