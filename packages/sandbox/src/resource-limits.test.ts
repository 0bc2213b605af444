import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { DEFAULT_LIMITS, limitsPrelude, limitsProblem, withoutCoreFiles } from './resource-limits.js';

describe(limitsPrelude, () => {
  it('sets hard and soft limits together, in the units ulimit takes, and never above the host hard limit', () => {
    expect(limitsPrelude(DEFAULT_LIMITS, undefined, {})).toBe('ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -i 1024 -c 0 || exit 126;');
    expect(limitsPrelude(DEFAULT_LIMITS, 0, {})).toBe('ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -i 1024 -u 256 -c 0 || exit 126;');
    expect(limitsPrelude(DEFAULT_LIMITS, 40, { nofile: 512, cpu: 60, sigpending: 200 })).toBe(
      'ulimit -H -S -t 60 -d 4194304 -f 1048576 -n 512 -i 200 -u 296 -c 0 || exit 126;',
    );
    // Started through `withoutCoreFiles`, the core size is 1 byte already (hard): the line leaves it.
    expect(limitsPrelude(DEFAULT_LIMITS, undefined, {}, true)).toBe('ulimit -H -S -t 600 -d 4194304 -f 1048576 -n 1024 -i 1024 || exit 126;');
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

describe(withoutCoreFiles, () => {
  // That nothing inside can raise it is checked in the sandbox (shell-exec.sandbox-processes.test.ts).
  it('starts the program with a core size of 1 byte, hard and soft', () => {
    const launch = withoutCoreFiles('/bin/bash', ['--noprofile', '--norc', '-c', 'prlimit --pid $$ --core --output SOFT,HARD --noheadings']);
    if (!launch) return expect(spawnSync('prlimit', ['--version']).status).not.toBe(0); // no prlimit here: the prelude sets 0
    const run = spawnSync(launch.file, launch.args, { encoding: 'utf8' });
    expect(run.stdout.trim().split(/\s+/)).toEqual(['1', '1']);
  });

  it('is not used where the host hard limit is 0 (it cannot be raised to 1)', () => {
    expect(withoutCoreFiles('/bin/true', [], { core: 0 })).toBeUndefined();
  });
});
