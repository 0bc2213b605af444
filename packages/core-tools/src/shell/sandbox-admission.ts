import os from 'node:os';
import { CoreToolError } from '../core-tool-error.js';

/** Sandboxed commands running in this process (foreground, background jobs, session shells, searches), and their memory limits together. */
let running = 0;
let committed = 0;

/**
 * Admits one more sandboxed command that may use up to `memoryBytes`, or refuses it: together they may use the
 * machine's memory at most, and at least two run at once whatever their limits. The limits of one command bound that
 * command only: a twelfth pass ran 30 at once from one MCP client, five of them 5.3–6.7 GiB together, and searches
 * past the count. Returns its release (once).
 */
export function admit(memoryBytes: number): () => void {
  const bytes = Math.max(1, memoryBytes);
  if (running >= 2 && committed + bytes > os.totalmem())
    throw new CoreToolError(
      'sandbox_unavailable',
      `The command was not run: ${running} sandboxed commands are running in this Toolwright process already, the most at once (together they may use ${gib(committed)} of memory, this one up to ${gib(bytes)}, and this machine has ${gib(os.totalmem())}). Wait for one to end, or stop a background job with shell_job_kill.`,
    );
  running++;
  committed += bytes;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    committed -= bytes;
  };
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}
