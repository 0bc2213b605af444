import type { ToolError } from '../tool-error.js';
import { deadlines } from './deadlines.js';
import { describeThrown } from '../output/describe-thrown.js';

export type RunOutcome<T> = { ok: true; value: T } | { ok: false; error: Extract<ToolError, { code: 'timeout' | 'cancelled' | 'tool_failed' }> };

/**
 * Runs a tool with an `AbortSignal` that fires at the deadline or when the caller cancels. The call
 * ends on time even if the tool ignores the signal: whichever comes first — the tool settling, the
 * deadline, the caller's abort — decides the outcome, and a late settlement of the abandoned promise
 * is ignored. One promise per call and no race: the tool's own promise settles it directly.
 */
export function runWithTimeout<T>(start: (signal: LazySignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<RunOutcome<T>> {
  if (outer?.aborted) return Promise.resolve({ ok: false, error: { code: 'cancelled', reason: reasonOf(outer) } });
  return new Promise<RunOutcome<T>>((resolve) => {
    const controller = new LazyAbortController();
    let settled = false;
    const settle = (outcome: RunOutcome<T>) => {
      if (settled) return;
      settled = true;
      deadline.cancel();
      outer?.removeEventListener('abort', onOuterAbort);
      resolve(outcome);
    };
    const deadline = deadlines.add(timeoutMs, () => {
      controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
      settle({ ok: false, error: { code: 'timeout', timeoutMs } });
    });
    const onOuterAbort = () => {
      controller.abort(outer!.reason);
      settle({ ok: false, error: { code: 'cancelled', reason: reasonOf(outer!) } });
    };
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const failed = (error: unknown) =>
      settle(
        controller.aborted
          ? {
              ok: false,
              error:
                controller.reason instanceof DOMException && controller.reason.name === 'TimeoutError'
                  ? { code: 'timeout', timeoutMs }
                  : { code: 'cancelled', reason: reasonOf(controller.signal) },
            }
          : { ok: false, error: toolFailure(error) },
      );
    let running: Promise<T>;
    try {
      running = start(controller);
    } catch (error) {
      // A synchronous throw is judged on the same microtask a rejection would be.
      void Promise.resolve().then(() => failed(error));
      return;
    }
    Promise.resolve(running).then((value) => settle({ ok: true, value }), failed);
  });
}

/** Gives the tool its `AbortSignal` on first use only: most tools never look at it, and creating one per call is costly. */
export interface LazySignal {
  readonly signal: AbortSignal;
}

class LazyAbortController implements LazySignal {
  private controller: AbortController | undefined;
  aborted = false;
  reason: unknown;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** The model sees the error's message, never its stack; the error's own string `code` is kept for hosts. */
export function toolFailure(error: unknown): Extract<ToolError, { code: 'tool_failed' }> {
  const { message, name, errorCode } = describeThrown(error, 'the tool');
  return { code: 'tool_failed', message, ...(name ? { name } : {}), ...(errorCode ? { errorCode } : {}) };
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  try {
    if (typeof reason === 'string' && reason !== '') return describeThrown(reason, 'the caller').message;
    if (reason instanceof Error) return describeThrown(reason, 'the caller').message;
  } catch {
    // A proxy reason whose traps throw: fall through to the plain wording.
  }
  return 'the call was cancelled';
}
