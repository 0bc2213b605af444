/**
 * Calls still running. Past its time limit an async property stops waiting for the run in progress
 * (`interruptAfterTimeLimit`, tools/vitest/property-limits.mts) while that run goes on: a shell command may still be
 * writing into a workspace the test then removes (a CI run failed its cleanup on it). A file's calls are tracked, and
 * its cleanup waits for them first (`settled`).
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    const forget = () => this.running.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
