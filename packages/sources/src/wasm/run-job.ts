import { HostStatus, type HostReply, type HostRequest } from './host-status.js';
import type { ImportedMemory } from './binary/prepare-module.js';
import type { CompiledModule } from './webassembly-api.js';
import { acquireWorker, releaseWorker, stopWorker, type WasmWorker } from './worker-pool.js';

/** One call as a worker runs it. */
export interface WasmJob {
  module: CompiledModule;
  memories: ImportedMemory[];
  exportName: string;
  /** The arguments object as JSON. */
  input: string;
  fuel: bigint;
  maxOutputBytes: number;
}

/** The worker's answer: the result's bytes, or how the module failed, with the meters read after it stopped. */
export type WorkerReply =
  | { type: 'done'; ok: true; bytes: Uint8Array; fuelLeft: bigint }
  | { type: 'done'; ok: false; kind: 'output'; length: number; fuelLeft: bigint; growFailed: boolean; memoryBytes: number }
  | {
      type: 'done';
      ok: false;
      kind: 'link' | 'export' | 'abort' | 'trap' | 'result';
      message: string;
      fuelLeft: bigint | undefined;
      growFailed: boolean;
      /** The size of the module's memory when it stopped. */
      memoryBytes: number;
    };

/** How a job ended: the worker's reply, or why there is none (the worker was stopped or died). */
export type JobOutcome =
  | { stop: 'reply'; reply: WorkerReply }
  | { stop: 'aborted'; reason: unknown }
  | { stop: 'timeout'; timeoutMs: number }
  | { stop: 'crashed'; detail: string; outOfMemory: boolean };

export interface JobOptions {
  signal: AbortSignal;
  /** A backstop besides the signal: the job never outlives it. */
  timeoutMs: number;
  /** Answers a host function's request, now or later: the worker waits for the answer either way. */
  host: (request: HostRequest) => HostReply | Promise<HostReply>;
  log: (text: string) => void;
}

type WorkerMessage = WorkerReply | { type: 'log'; text: string };

/**
 * Runs a job on a worker from the pool (waiting for one while `MAX_WORKERS` run). A job that ends with a
 * reply gives the worker back; one that is aborted, runs out of time or kills its worker terminates it,
 * and resolves only once the thread is gone, so nothing the module started outlives the call. Never rejects.
 */
export async function runJob(job: WasmJob, options: JobOptions): Promise<JobOutcome> {
  const { signal } = options;
  const entry = signal.aborted ? undefined : await acquireWorker(signal);
  if (!entry) return { stop: 'aborted', reason: signal.reason as unknown };
  if (signal.aborted) {
    releaseWorker(entry);
    return { stop: 'aborted', reason: signal.reason as unknown };
  }
  return runOn(entry, job, options);
}

function runOn(entry: WasmWorker, job: WasmJob, options: JobOptions): Promise<JobOutcome> {
  const { signal } = options;
  const { worker, hostPort, flag } = entry;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: JobOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      hostPort.off('message', onHostRequest);
      if (outcome.stop === 'reply') {
        releaseWorker(entry);
        resolve(outcome);
      } else {
        void stopWorker(entry).then(() => resolve(outcome));
      }
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type !== 'log') return finish({ stop: 'reply', reply: message });
      try {
        options.log(message.text);
      } catch {
        // A progress listener that throws must not take the call down with it.
      }
    };
    const onHostRequest = (request: HostRequest) => {
      void answer(options.host, request).then((reply) => {
        // A job that ended meanwhile has a stopped worker (or, once released, another job's): nothing to answer.
        if (settled) return;
        hostPort.postMessage(reply);
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
      });
    };
    const onError = (error: Error & { code?: string }) =>
      finish({ stop: 'crashed', detail: error.message, outOfMemory: error.code === 'ERR_WORKER_OUT_OF_MEMORY' });
    const onExit = () => finish({ stop: 'crashed', detail: 'the worker thread stopped', outOfMemory: false });
    const onAbort = () => finish({ stop: 'aborted', reason: signal.reason as unknown });
    const timer = setTimeout(() => finish({ stop: 'timeout', timeoutMs: options.timeoutMs }), options.timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    hostPort.on('message', onHostRequest);
    worker.postMessage(job);
  });
}

/** The host's reply, once it has one; a host that throws or rejects answers `failed`. Never rejects. */
async function answer(host: JobOptions['host'], request: HostRequest): Promise<HostReply> {
  try {
    return await host(request);
  } catch {
    return { code: HostStatus.failed };
  }
}
