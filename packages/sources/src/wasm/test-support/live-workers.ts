// Test hooks of the worker pool (not part of the package's API).
export { busyWorkerCount, liveWorkerCount, MAX_WORKERS, stopIdleWorkers, waitingCallCount } from '../worker-pool.js';
