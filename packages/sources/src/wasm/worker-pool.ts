import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { WORKER_SOURCE } from './worker-program.js';

/** A worker thread that runs modules, with its end of the channel its host functions ask the main thread on. */
export interface WasmWorker {
  readonly worker: Worker;
  readonly hostPort: MessagePort;
  /** Set to 1 (and notified) once the answer to a host request is on `hostPort`. */
  readonly flag: Int32Array;
}

/** The JS heap of a worker: it holds the arguments, the result and a file's content on the way, never the module's memory. */
export const WORKER_HEAP_MB = 64;

/**
 * Worker threads alive at once, running or idle; a call that finds none free waits for one (its signal
 * still ends the wait). Each may hold a module's whole memory cap, so their number is bounded too.
 */
export const MAX_WORKERS = Math.max(4, 2 * availableParallelism());
/** Warm workers kept between calls. */
const MAX_IDLE = Math.min(4, MAX_WORKERS);

const idle: WasmWorker[] = [];
const live = new Set<Worker>();
const waiting: ((entry: WasmWorker) => void)[] = [];

/** A warm worker, a new one, or (at `MAX_WORKERS`) the next one freed; `undefined` when the signal aborts first. */
export function acquireWorker(signal: AbortSignal): Promise<WasmWorker | undefined> {
  const warm = idle.pop();
  if (warm) {
    warm.worker.ref();
    return Promise.resolve(warm);
  }
  if (live.size < MAX_WORKERS) return Promise.resolve(startWorker());
  return new Promise((resolve) => {
    const onAbort = () => {
      waiting.splice(waiting.indexOf(give), 1);
      resolve(undefined);
    };
    const give = (entry: WasmWorker) => {
      signal.removeEventListener('abort', onAbort);
      resolve(entry);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.push(give);
  });
}

function startWorker(): WasmWorker {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { hostPort: port2, flag: flag.buffer },
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const entry: WasmWorker = { worker, hostPort: port1, flag };
  live.add(worker);
  worker.once('exit', () => {
    live.delete(worker);
    const index = idle.indexOf(entry);
    if (index !== -1) idle.splice(index, 1);
    port1.close();
    if (waiting.length > 0 && live.size < MAX_WORKERS) waiting.shift()!(startWorker());
  });
  // An 'error' event with no listener would be thrown on this thread; each call listens for its own.
  worker.on('error', () => undefined);
  return entry;
}

/** Hands a worker whose call ended normally to the next call waiting, or keeps it warm (unreferenced: an idle worker never keeps the process alive). */
export function releaseWorker(entry: WasmWorker): void {
  if (!live.has(entry.worker)) return;
  const next = waiting.shift();
  if (next) return next(entry);
  if (idle.length >= MAX_IDLE) return void entry.worker.terminate();
  entry.worker.unref();
  idle.push(entry);
}

/** Stops a worker at once, whatever it runs (a loop in WebAssembly included), and resolves when its thread is gone. */
export async function stopWorker(entry: WasmWorker): Promise<void> {
  await entry.worker.terminate();
}

/** Worker threads started and not yet exited, idle or running (for tests: nothing may be left running). */
export function liveWorkerCount(): number {
  return live.size;
}

/** Workers running a call now (for tests that need every worker busy). */
export function busyWorkerCount(): number {
  return live.size - idle.length;
}

/** Calls waiting for a worker (for tests that act once a call is known to wait). */
export function waitingCallCount(): number {
  return waiting.length;
}

/** Stops the idle workers (for tests and benchmarks that measure a cold start). */
export async function stopIdleWorkers(): Promise<void> {
  await Promise.all(idle.splice(0).map(stopWorker));
}
