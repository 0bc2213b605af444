// Test hooks of the worker pool (not part of the package's API).
export { liveWorkerCount, MAX_WORKERS, stopIdleWorkers } from '../worker-pool.js';
