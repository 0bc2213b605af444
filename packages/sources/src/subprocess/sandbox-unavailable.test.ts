// A machine where bubblewrap cannot run, as the sandbox probe finds one: bubblewrap named where there is none.
import { afterAll, describe, expect, it } from 'vitest';
import { failure, runPython, value } from './test-support/python-tool.js';

// Read at this file's first probe (each test file has its own modules, so its own probe).
const configured = process.env.TOOLWRIGHT_BWRAP;
process.env.TOOLWRIGHT_BWRAP = '/nonexistent/bwrap';
afterAll(() => {
  if (configured === undefined) delete process.env.TOOLWRIGHT_BWRAP;
  else process.env.TOOLWRIGHT_BWRAP = configured;
});

describe('a subprocess tool where the kernel sandbox cannot run', () => {
  it('refuses to run under sandbox: required, with sandbox_unavailable, starting nothing', async () => {
    const { result, seen } = await runPython('print(1)', { sandbox: 'required' });
    const error = failure(result);
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.message).toMatch(
      /^the subprocess tool was not run: the kernel sandbox is required but unavailable: \/nonexistent\/bwrap is not an executable file$/,
    );
    expect(seen).toEqual([]);
  });

  it('runs on the host under sandbox: auto, with its limits still set', async () => {
    const { result } = await runPython('import json, resource; print(json.dumps(resource.getrlimit(resource.RLIMIT_CPU)))', { sandbox: 'auto', cpuSeconds: 7 });
    expect(value(result)).toEqual([7, 8]);
  });
});
