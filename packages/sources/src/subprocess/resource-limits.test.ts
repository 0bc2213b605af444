// The limits a subprocess tool runs under, each made to stop a program that runs into it: the call ends with a coded
// result naming the limit, and no process of the program is left running.
import { describe, expect, it } from 'vitest';
import { failure, runPython } from './test-support/python-tool.js';
import { sandboxHere } from './test-support/sandbox-here.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const here = await sandboxHere();
const MB = 1024 ** 2;

describe('the limits of a subprocess tool', () => {
  it('stops a runaway loop at the call’s deadline with resource_exhausted (time), killing its whole group', async () => {
    const elapsed = stopwatch();
    const { result, seen } = await runPython('import os, time\nos.fork()\nwhile True: time.sleep(0.01)', {}, { signal: AbortSignal.timeout(1500) });
    const error = failure(result);
    expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'time' });
    expect(elapsed()).toBeLessThan(1500 + 3000);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('stops a loop at the tool’s own timeout with resource_exhausted (time) when the call’s signal never fires', async () => {
    const { result } = await runPython('while True: pass', {}, { timeoutMs: 1000, signal: new AbortController().signal });
    expect(failure(result)).toMatchObject({ code: 'resource_exhausted', limit: 'time' });
  });

  it('stops a CPU-bound loop past cpuSeconds with resource_exhausted (cpu), well before the deadline', async () => {
    const elapsed = stopwatch();
    const { result } = await runPython('while True: pass', { cpuSeconds: 1 }, { timeoutMs: 20_000 });
    const error = failure(result);
    expect({ code: error.code, limit: error.limit, message: error.message }).toEqual({
      code: 'resource_exhausted',
      limit: 'cpu',
      message: 'the program used more than its 1 CPU seconds and was stopped (SIGXCPU)',
    });
    expect(elapsed()).toBeLessThan(10_000);
  });

  it('stops a memory bomb at the tool’s maxMemory with resource_exhausted (memory): the allocation is refused', async () => {
    const { result } = await runPython('b = bytearray(200 * 1024 * 1024)\nprint("{}")', {}, { maxMemoryBytes: 64 * MB });
    const error = failure(result);
    expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'memory' });
    expect(error.message).toMatch(/^the program could not allocate memory within its 64 MB cap and exited with code 1; .*MemoryError$/s);
  });

  it('runs a program that stays within its memory', async () => {
    const { result } = await runPython('b = bytearray(20 * 1024 * 1024)\nprint(len(b))', {}, { maxMemoryBytes: 64 * MB });
    expect(result).toEqual({ status: 'fulfilled', value: 20 * MB });
  });

  it.skipIf(!here.memory)(
    'counts the memory of all the program’s processes together: past the cap the kernel kills one, and the call says memory (needs bubblewrap and the memory controller)',
    async () => {
      // Four processes of 40 MB each: every one stays under the per-process cap, together they pass the 96 MB one.
      // Each holds its block a moment; the first fails when the kernel killed one of the others (or is killed itself).
      const code = [
        'import os, sys, time',
        'children = []',
        'for _ in range(3):',
        '    pid = os.fork()',
        '    if pid == 0:',
        '        children = None',
        '        break',
        '    children.append(pid)',
        'block = bytearray(40 * 1024 * 1024)',
        'for i in range(0, len(block), 4096): block[i] = 1',
        'time.sleep(1)',
        'if children is None: os._exit(0)',
        'killed = [pid for pid in children if os.WIFSIGNALED(os.waitpid(pid, 0)[1])]',
        'sys.exit(1 if killed else 0)',
      ].join('\n');
      const { result } = await runPython(code, {}, { maxMemoryBytes: 96 * MB, timeoutMs: 20_000 });
      const error = failure(result);
      expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'memory' });
      expect(error.message).toMatch(/^the program used more than its 96 MB memory cap, and the kernel killed it/);
    },
  );

  it.skipIf(!here.pids)(
    'contains a fork bomb: forks past the processes limit fail, the call says processes, and none of the bomb is left (needs bubblewrap and the pids controller)',
    async () => {
      // Every process forks for ever; one whose fork is refused exits 1. The limit holds the whole tree, so the
      // first process soon meets a refusal too, and its end ends the sandbox with everything in it.
      const code = [
        'import os, sys',
        'while True:',
        '    try: os.fork()',
        '    except OSError as error:',
        '        print(error, file=sys.stderr)',
        '        os._exit(1)',
      ].join('\n');
      const elapsed = stopwatch();
      const { result, seen } = await runPython(code, { processes: 16 }, { timeoutMs: 20_000 });
      const error = failure(result);
      expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'processes' });
      expect(error.message).toMatch(
        /^the program tried to run more than 16 processes and threads at once; the kernel refused \d+ more, and it failed; .*Resource temporarily unavailable/s,
      );
      expect(elapsed()).toBeLessThan(15_000);
      expect(seen.length).toBeGreaterThan(1);
    },
  );

  it('stops a write past fileSizeBytes with resource_exhausted (file_size)', async () => {
    const code = 'import os\nwith open(os.path.join(os.environ["HOME"], "big"), "wb") as f: f.write(b"x" * (2 * 1024 * 1024))';
    const { result } = await runPython(code, { fileSizeBytes: 1 * MB });
    const error = failure(result);
    expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'file_size' });
    expect(error.message).toMatch(/^the program wrote a file past its 1 MB file size cap and exited with code 1; .*File too large/s);
  });
});
