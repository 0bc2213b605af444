import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../source-error.js';
import { runSubprocess } from './run-subprocess.js';
import { processesWith, stillRunning, untilRunning, watchProcesses } from './test-support/process-watch.js';
import { failure, folder, newMarker, runPython, snapshot } from './test-support/python-tool.js';
import { testSandboxMode } from './test-support/sandbox-here.js';
import { subprocessRequest } from './test-support/subprocess-request.js';
import type { SubprocessToolOptions } from '../source-options.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const WORD_STATS = fileURLToPath(new URL('../../../../examples/subprocess-tools/tools/word_stats.py', import.meta.url));
describe(runSubprocess, () => {
  it('runs a Python tool: the arguments go in as JSON on stdin, the JSON it prints is the result', async () => {
    const workspace = folder('tw-subprocess-ws-');
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'kept');
    const toolDir = path.dirname(WORD_STATS);
    const before = { workspace: snapshot(workspace), tools: snapshot(toolDir) };
    const marker = newMarker();
    const text = 'The cat saw the dog.\nThe dog ran; the cat sat.\n';
    const { result, seen } = await watchProcesses(marker, () =>
      runSubprocess(subprocessRequest(['python3', WORD_STATS, marker], toolDir, { sandbox: testSandboxMode() }, { workspace, input: { text } })),
    );
    expect(result).toEqual({
      status: 'fulfilled',
      value: {
        words: 11,
        lines: 2,
        top: [
          { word: 'the', count: 4 },
          { word: 'cat', count: 2 },
          { word: 'dog', count: 2 },
          { word: 'ran', count: 1 },
          { word: 'sat', count: 1 },
        ],
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter(stillRunning)).toEqual([]);
    expect({ workspace: snapshot(workspace), tools: snapshot(toolDir) }).toEqual(before);
  });

  it('runs a program by its path (its #! line names the interpreter) from another working folder', async () => {
    const marker = newMarker();
    const cwd = folder('tw-subprocess-cwd-');
    const request = subprocessRequest(
      [WORD_STATS, marker],
      cwd,
      { sandbox: testSandboxMode() },
      { workspace: folder('tw-subprocess-ws-'), input: { text: 'a b a' } },
    );
    const { result } = await watchProcesses(marker, () => runSubprocess(request));
    expect(result).toEqual({
      status: 'fulfilled',
      value: {
        words: 3,
        lines: 1,
        top: [
          { word: 'a', count: 2 },
          { word: 'b', count: 1 },
        ],
      },
    });
  });

  it.for([
    ['without a workspace', false],
    ['with a workspace elsewhere', true],
  ])('runs the example as it is declared, python3 ../tools/word_stats.py from its src folder, %s', async ([, withWorkspace]) => {
    const src = path.join(path.dirname(WORD_STATS), '../src');
    const call = { input: { text: 'x y x' }, ...(withWorkspace ? { workspace: folder('tw-subprocess-ws-') } : {}) };
    const value = await runSubprocess(subprocessRequest(['python3', '../tools/word_stats.py'], src, { sandbox: testSandboxMode() }, call));
    expect(value).toEqual({
      words: 3,
      lines: 1,
      top: [
        { word: 'x', count: 2 },
        { word: 'y', count: 1 },
      ],
    });
  });

  it('passes large arguments whole (more than a pipe holds)', async () => {
    const text = 'word '.repeat(200_000);
    const { result } = await runPython('import json,sys; a=json.load(sys.stdin); print(json.dumps({"length": len(a["text"])}))', {}, { input: { text } });
    expect(result).toEqual({ status: 'fulfilled', value: { length: text.length } });
  });

  it('gives the program a minimal environment, never the host’s, with the tool’s own variables', async () => {
    process.env.TOOLWRIGHT_TEST_SECRET = 'host-secret';
    try {
      const { result } = await runPython('import json,os; print(json.dumps(dict(os.environ)))', { env: { GREETING: 'hello' } });
      expect(result.status).toBe('fulfilled');
      const env = (result as PromiseFulfilledResult<Record<string, string>>).value;
      // bash adds PWD, SHLVL and `_` to what it runs; TMPDIR is the private HOME when the program runs on the host.
      expect(
        Object.keys(env)
          .filter((name) => !['PWD', 'SHLVL', '_', 'TMPDIR'].includes(name))
          .sort(),
      ).toEqual(['GREETING', 'HOME', 'LANG', 'PATH']);
      expect(env).toMatchObject({ GREETING: 'hello', PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' });
      expect(env.HOME).not.toBe(os.homedir());
    } finally {
      delete process.env.TOOLWRIGHT_TEST_SECRET;
    }
  });

  it('fails with source_failed, the exit code and the end of stderr, when the program exits non-zero', async () => {
    const { result } = await runPython('import sys; sys.stderr.write("x" * 5000 + "\\nboom: the input was bad\\n"); sys.exit(3)');
    const error = failure(result);
    expect(error.code).toBe('source_failed');
    expect(error.message).toMatch(/exited with code 3; its error output ends: …x+\nboom: the input was bad$/);
    expect(error.message.length).toBeLessThan(2200);
  });

  it('tells a program’s own exit code 127 from a program that could not be started', async () => {
    const error = failure((await runPython('import sys; sys.stderr.write("command not found\\n"); sys.exit(127)')).result);
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'source_failed',
      message: 'the program exited with code 127; its error output ends: command not found',
    });
  });

  it.for([
    ['SIGSEGV', /^the program was killed by SIGSEGV; its error output ends: about to crash$/],
    [
      'SIGKILL',
      /^the program was killed \(SIGKILL\), not by Toolwright's own stop nor by the memory limit of its group: .*; its error output ends: about to crash$/,
    ],
  ])('fails with source_failed naming the signal when the program is killed by %s', async ([name, message]) => {
    const code = `import os, signal, sys\nsys.stderr.write("about to crash\\n"); sys.stderr.flush()\nos.kill(os.getpid(), signal.${name as string})`;
    const error = failure((await runPython(code)).result);
    expect({ code: error.code, message: error.message }).toEqual({ code: 'source_failed', message: expect.stringMatching(message as RegExp) });
  });

  it.for([
    ['prints what is not JSON', 'print("hello")', /printed something that is not JSON .*: "hello"$/],
    ['prints nothing', 'pass', /printed nothing/],
    ['prints JSON followed by more', 'print("{}"); print("{}")', /not JSON/],
  ])('fails with invalid_output when the program %s', async ([, code, message]) => {
    const error = failure((await runPython(code as string)).result);
    expect(error.code).toBe('invalid_output');
    expect(error.message).toMatch(message as RegExp);
  });

  it('stops a program that prints more than its output cap, with resource_exhausted (output), leaving nothing running', async () => {
    const { result, seen } = await runPython('import sys\nwhile True: sys.stdout.write("x" * 4096)', { maxOutputBytes: 100_000 });
    const error = failure(result);
    expect({ code: error.code, limit: error.limit }).toEqual({ code: 'resource_exhausted', limit: 'output' });
    expect(error.message).toMatch(/more than its 100000 bytes output cap/);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('accepts a result of exactly the output cap', async () => {
    const { result } = await runPython('import sys; sys.stdout.write("\\"" + "x" * 998 + "\\"")', { maxOutputBytes: 1000 });
    expect(result).toEqual({ status: 'fulfilled', value: 'x'.repeat(998) });
  });

  it('fails with not_found for a program that is missing, not on the PATH, or not executable, or a missing working directory', async () => {
    const toolDir = folder('tw-subprocess-tool-');
    fs.writeFileSync(path.join(toolDir, 'plain.py'), 'print(1)\n', { mode: 0o644 });
    const cases: [string[], string, RegExp][] = [
      [[path.join(toolDir, 'missing.py')], toolDir, /missing\.py' does not exist/],
      [['no-such-program-tw'], toolDir, /no program named 'no-such-program-tw' was found on the tool's PATH/],
      [[path.join(toolDir, 'plain.py')], toolDir, /is not executable/],
      [['python3'], path.join(toolDir, 'gone'), /working directory .* does not exist/],
    ];
    for (const [argv, cwd, message] of cases) {
      const error = await runSubprocess(subprocessRequest(argv, cwd)).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(SourceError);
      expect({ code: (error as SourceError).code, message: (error as SourceError).message }).toEqual({
        code: 'not_found',
        message: expect.stringMatching(message),
      });
    }
  });

  it('stops the program and everything it started when the call is cancelled, with cancelled', async () => {
    const marker = newMarker();
    const controller = new AbortController();
    const code = 'import os, time\nif os.fork() == 0:\n    time.sleep(60)\ntime.sleep(60)';
    const elapsed = stopwatch();
    const call = runSubprocess(
      subprocessRequest(['python3', '-c', code, marker], folder('tw-subprocess-tool-'), { sandbox: testSandboxMode() }, { signal: controller.signal }),
    );
    const running = await untilRunning(marker);
    // The program and its child both run before the call is cancelled.
    while (processesWith(marker).filter((seen) => fs.readFileSync(`/proc/${seen.pid}/comm`, 'utf8').startsWith('python')).length < 2)
      await new Promise((r) => setTimeout(r, 5));
    const seen = [...running, ...processesWith(marker)];
    controller.abort(new Error('the user stopped it'));
    const error = await call.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe('cancelled');
    expect(elapsed()).toBeLessThan(10_000);
    expect(seen.filter(stillRunning)).toEqual([]);
    expect(processesWith(marker)).toEqual([]);
  });

  it.for([
    [{ cpuSeconds: 0 }, /'cpuSeconds' must be a whole number of at least 1, not 0/],
    [{ maxOutputBytes: 1.5 }, /'maxOutputBytes' must be a whole number of at least 1, not 1.5/],
    [{ sandbox: 'sometimes' }, /sandbox mode must be one of auto, required, off, not 'sometimes'/],
  ] as const)('refuses invalid options %j with invalid_config, before anything runs', async ([options, message]) => {
    const error = await runSubprocess(subprocessRequest(['python3', '-c', 'print(1)'], folder('tw-subprocess-tool-'), options as SubprocessToolOptions)).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'invalid_config', message: expect.stringMatching(message) });
  });
});
