// A limit (or not_found) is named only on evidence the model's arguments cannot forge: not on error output that
// quotes them, nor on an exit code the program chose.
import { describe, expect, it } from 'vitest';
import { failure, runPython } from './test-support/python-tool.js';

/** A program that refuses its input, quoting it, as programs commonly do (Python's ValueError, a usage message). */
const REJECTS_INPUT = 'import json, sys; text = json.load(sys.stdin)["text"]; sys.exit("invalid input: " + text)';

describe('the failure code of a subprocess tool', () => {
  it.for([['MemoryError'], ['Cannot allocate memory'], ['cannot ALLOCATE memory'], ['File too large']])(
    'is source_failed, quoting the error output, when the program rejects an argument that says %j',
    async ([text]) => {
      const { result } = await runPython(REJECTS_INPUT, {}, { input: { text } });
      expect(failure(result)).toMatchObject({ code: 'source_failed', message: expect.stringMatching(`its error output ends: invalid input: ${text}$`) });
    },
  );

  it('is source_failed when the words of a limit are not on the last line of the error output', async () => {
    const { result } = await runPython('import sys; sys.stderr.write("MemoryError\\nusage: tool TEXT\\n"); sys.exit(2)');
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });

  it('is resource_exhausted (memory) when the last line says an allocation failed and the arguments do not', async () => {
    const { result } = await runPython('import json, sys; json.load(sys.stdin); raise MemoryError()', {}, { input: { text: 'hello' } });
    expect(failure(result)).toMatchObject({ code: 'resource_exhausted', limit: 'memory' });
  });

  it('is source_failed, not not_found, when the program prints bash’s wording about another program and exits 127', async () => {
    const { result } = await runPython(
      'import json, sys; sys.stderr.write("toolwright-shell: line 1: " + json.load(sys.stdin)["text"] + ": command not found\\n"); sys.exit(127)',
      {},
      { input: { text: 'frobnicate' } },
    );
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });

  it('is source_failed, not a CPU limit, when the program exits with 152 (= 128 + SIGXCPU) long before its CPU seconds', async () => {
    const { result } = await runPython('import sys; sys.exit(152)');
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });

  it('is source_failed, not a CPU limit, when the program gets SIGXCPU long before its CPU seconds', async () => {
    const { result } = await runPython('import os, signal; os.kill(os.getpid(), signal.SIGXCPU)');
    expect(failure(result)).toMatchObject({ code: 'source_failed', message: expect.stringMatching(/too soon to have used its 60 CPU seconds/) });
  });

  it('is source_failed, not file_size, when the program exits with 153 (= 128 + SIGXFSZ) in the sandbox', async () => {
    const { result } = await runPython('import sys; sys.exit(153)');
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });
});
