import { Worker } from 'node:worker_threads';

/**
 * Work whose cost a model or a web page controls (a regex's backtracking, a page's HTML) runs in a
 * worker thread: a running computation cannot be interrupted on the thread that runs it, and this
 * thread must keep answering (the call's own timeout, other calls, an MCP `ping`). The worker is
 * terminated when its budget runs out, when the call is aborted, or when it outgrows its heap cap.
 */

/** A program run in worker threads; it answers every message posted to it with exactly one message. */
export interface WorkerProgram {
  /**
   * CommonJS source evaluated in each worker (`require`, `parentPort` from `node:worker_threads`).
   * Evaluated from text, not loaded from a file, so the same code runs from the TypeScript source
   * under vitest and from the build.
   */
  readonly source: string;
  /** Handed to each worker as `workerData` (e.g. the resolved paths of the modules it loads). */
  readonly workerData?: unknown;
  /** Heap cap of each worker, in MiB: past it the worker dies and the job ends with `crashed`. */
  readonly maxHeapMb: number;
}

export interface WorkerJobOptions {
  /** Wall-clock time the job may take, from when it is posted. */
  budgetMs: number;
  /** The call's signal: aborting it terminates the worker at once. */
  signal?: AbortSignal | undefined;
}

/** How a job ended: the worker's reply, or why there is none (`detail` says what happened). */
export type WorkerJobOutcome<Reply> =
  | { ok: true; reply: Reply }
  | { ok: false; stop: 'budget'; budgetMs: number }
  | { ok: false; stop: 'crashed'; detail: string }
  | { ok: false; stop: 'aborted'; reason: unknown };

/**
 * One warm worker kept per program between jobs (unreferenced: it never keeps the process alive),
 * with the listener that drops it from the pool when it dies while idle (a stray error, its heap
 * cap): a job posted to a dead worker would get no reply and no 'exit', only its budget running out.
 */
const idle = new Map<WorkerProgram, { worker: Worker; onExit: () => void }>();

function takeWorker(program: WorkerProgram): Worker {
  const warm = idle.get(program);
  if (warm) {
    idle.delete(program);
    warm.worker.off('exit', warm.onExit);
  }
  const worker =
    warm?.worker ??
    new Worker(program.source, {
      eval: true,
      workerData: program.workerData,
      resourceLimits: { maxOldGenerationSizeMb: program.maxHeapMb },
    });
  worker.unref();
  // An 'error' event with no listener would be thrown in this thread.
  if (worker.listenerCount('error') === 0) worker.on('error', () => undefined);
  return worker;
}

function releaseWorker(program: WorkerProgram, worker: Worker): void {
  if (idle.has(program)) {
    void worker.terminate();
    return;
  }
  const onExit = () => idle.delete(program);
  worker.once('exit', onExit);
  idle.set(program, { worker, onExit });
}

/**
 * Posts `job` to a worker running `program` and resolves with its reply, or with why there is none:
 * the budget ran out, the worker crashed (an uncaught error, its heap cap) or the job could not be
 * posted (it cannot be cloned), or the signal aborted.
 * Never rejects. Concurrent jobs run in separate workers.
 * @example
 * const outcome = await runWorkerJob<{ html: string }>(HTML_PROGRAM, { html }, { budgetMs: 10_000, signal });
 * if (!outcome.ok && outcome.stop === 'budget') return plainText(html);
 */
export function runWorkerJob<Reply>(program: WorkerProgram, job: unknown, options: WorkerJobOptions): Promise<WorkerJobOutcome<Reply>> {
  const { signal, budgetMs } = options;
  if (signal?.aborted) return Promise.resolve({ ok: false, stop: 'aborted', reason: signal.reason as unknown });
  return new Promise((resolve) => {
    const worker = takeWorker(program);
    const finish = (outcome: WorkerJobOutcome<Reply>) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (outcome.ok) releaseWorker(program, worker);
      else void worker.terminate();
      resolve(outcome);
    };
    const onMessage = (reply: Reply) => finish({ ok: true, reply });
    const onError = (error: Error) => finish({ ok: false, stop: 'crashed', detail: error.message });
    const onExit = () => finish({ ok: false, stop: 'crashed', detail: 'the worker stopped' });
    const onAbort = () => finish({ ok: false, stop: 'aborted', reason: signal!.reason as unknown });
    const timer = setTimeout(() => finish({ ok: false, stop: 'budget', budgetMs }), budgetMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    try {
      worker.postMessage(job);
    } catch (error) {
      // A job that cannot be cloned (a function, a symbol) throws a DataCloneError here.
      finish({ ok: false, stop: 'crashed', detail: error instanceof Error ? error.message : String(error) });
    }
  });
}
