// Reviewer's tests (ee657b7): a limit must be named "only on evidence" — not on text the model controls, nor on a
// program's own ordinary exit status.
import { describe, expect, it } from 'vitest';
import { failure, runPython } from './test-support/python-tool.js';

/** A program that refuses its input, quoting it, as programs commonly do (Python's ValueError, a usage message). */
const REJECTS_INPUT = 'import json, sys; text = json.load(sys.stdin)["text"]; sys.exit("invalid input: " + text)';

describe('review: the failure code of a subprocess tool', () => {
  it.for([
    ['MemoryError', 'memory'],
    ['Cannot allocate memory', 'memory'],
    ['File too large', 'file_size'],
  ])('is source_failed when a program rejects an argument that merely says %j (not resource_exhausted/%s)', async ([text]) => {
    const { result } = await runPython(REJECTS_INPUT, {}, { input: { text } });
    // Actual: resource_exhausted with limit 'memory' / 'file_size', and a message claiming the cap was hit.
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });

  it('is not_found only when bash could not start the program, not when the program prints bash’s wording and exits 127', async () => {
    const { result } = await runPython(
      'import json, sys; sys.stderr.write("toolwright-shell: line 1: " + json.load(sys.stdin)["text"] + ": command not found\\n"); sys.exit(127)',
      {},
      { input: { text: 'frobnicate' } },
    );
    // Actual: not_found "the program 'python3' could not be started" — python3 ran.
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });

  it('is source_failed, not a CPU limit, when the program itself exits with status 152 (= 128 + SIGXCPU) in the sandbox', async () => {
    const { result } = await runPython('import sys; sys.exit(152)');
    // Actual (inside bubblewrap): resource_exhausted 'cpu' "used more than its 60 CPU seconds" after a few milliseconds.
    expect(failure(result)).toMatchObject({ code: 'source_failed' });
  });
});
