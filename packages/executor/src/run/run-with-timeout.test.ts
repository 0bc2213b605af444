import { describe, expect, it } from 'vitest';
import { runWithTimeout } from './run-with-timeout.js';

describe(runWithTimeout, () => {
  it('returns the value of a tool that finishes in time', async () => {
    expect(await runWithTimeout(async () => 42, 1000)).toEqual({ ok: true, value: 42 });
  });

  it('ends on time even when the tool ignores its signal, and aborts the signal', async () => {
    let seen: AbortSignal | undefined;
    const outcome = await runWithTimeout((lazy) => {
      seen = lazy.signal;
      return new Promise(() => {}); // never settles
    }, 30);
    expect(outcome).toEqual({ ok: false, error: { code: 'timeout', timeoutMs: 30 } });
    expect(seen?.aborted).toBe(true);
  });

  it('reports cancellation by the caller', async () => {
    const controller = new AbortController();
    const running = runWithTimeout(() => new Promise(() => {}), 10_000, controller.signal);
    controller.abort(new Error('user pressed stop'));
    expect(await running).toEqual({ ok: false, error: { code: 'cancelled', reason: 'user pressed stop' } });
  });

  it('turns a thrown error into tool_failed with its message only', async () => {
    expect(
      await runWithTimeout(async () => {
        throw new RangeError('bad range');
      }, 1000),
    ).toEqual({ ok: false, error: { code: 'tool_failed', message: 'bad range', name: 'RangeError' } });
    expect(
      await runWithTimeout(() => {
        throw 'plain';
      }, 1000),
    ).toEqual({ ok: false, error: { code: 'tool_failed', message: 'plain' } });
  });
});
