import fs from 'node:fs';
import { procStat } from './process-groups.js';

/** The first process of a sandbox's PID namespace, as the host numbers it, and when it started (to tell a reused number). */
export interface NamespaceInit {
  pid: number;
  start: string;
}

/**
 * The first process of the PID namespace bubblewrap made (`launcherPid` is bubblewrap's, on the host): its one child.
 * Read while the sandbox runs; undefined where the kernel does not list children (`/proc/<pid>/task/<pid>/children`).
 */
export function namespaceInit(launcherPid: number): NamespaceInit | undefined {
  try {
    const children = fs.readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (children.length !== 1) return undefined;
    const pid = Number(children[0]);
    const start = procStat(pid)?.[19];
    return start !== undefined ? { pid, start } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once every process of the sandbox's PID namespace is gone. Bubblewrap reports the command's end as soon as
 * the namespace's first process has its status, and that process then exits, the kernel killing and reaping every
 * other process of the namespace on the way: until it is gone (or a zombie, which it becomes only after), some of them
 * may still run. Waits `timeoutMs`, then kills it (which ends the namespace the same way) and waits for the kernel to
 * have ended every process — a process in the middle of a large write ends only when the write does — for
 * `afterKillMs` more. Resolves to false when something of the namespace was still there after both (the caller says
 * so: its command may still change files for a moment).
 */
export async function namespaceEnded(init: NamespaceInit, timeoutMs = 2000, afterKillMs = 10_000): Promise<boolean> {
  const killAt = performance.now() + timeoutMs;
  let killed = false;
  for (let wait = 0; ; wait = Math.min(wait + 1, 10)) {
    const fields = procStat(init.pid);
    if (!fields || fields[19] !== init.start || fields[0] === 'Z' || fields[0] === 'X') return true;
    if (!killed && performance.now() > killAt) {
      killed = true;
      try {
        process.kill(init.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    } else if (killed && performance.now() > killAt + afterKillMs) return false;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
