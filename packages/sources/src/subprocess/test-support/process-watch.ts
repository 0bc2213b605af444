import fs from 'node:fs';

/** A process seen on the host: its number and when it started (a reused number is another process). */
export interface SeenProcess {
  pid: number;
  start: string;
}

/**
 * Processes on the host whose command line holds `marker` (a test passes a random marker as the program's last
 * argument: the program, the bash that started it, bubblewrap and whatever the program forks all carry it).
 */
export function processesWith(marker: string): SeenProcess[] {
  const found: SeenProcess[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`).includes(marker)) continue;
      const start = startOf(Number(entry));
      if (start !== undefined && isLive(Number(entry))) found.push({ pid: Number(entry), start });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Whether the process still runs: the same process (same start) and not a zombie. */
export function stillRunning(seen: SeenProcess): boolean {
  return startOf(seen.pid) === seen.start && isLive(seen.pid);
}

/**
 * Runs `call` while looking, every few milliseconds, for the processes that carry `marker`: every one seen is
 * recorded, so a test can check afterwards that each is gone (and that it saw some: the check can fail).
 */
export async function watchProcesses<T>(marker: string, call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; seen: SeenProcess[] }> {
  const seen = new Map<string, SeenProcess>();
  const look = () => {
    for (const found of processesWith(marker)) seen.set(`${found.pid}:${found.start}`, found);
  };
  const timer = setInterval(look, 5);
  try {
    const [result] = await Promise.allSettled([call()]);
    return { result: result!, seen: [...seen.values()] };
  } finally {
    clearInterval(timer);
  }
}

/** Resolves once some process carrying `marker` runs (or rejects after `timeoutMs`). */
export async function untilRunning(marker: string, timeoutMs = 10_000): Promise<SeenProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = processesWith(marker);
    if (found.length > 0) return found;
    if (Date.now() > until) throw new Error(`no process with the marker ${marker} started within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function stat(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function startOf(pid: number): string | undefined {
  return stat(pid)?.[19];
}

function isLive(pid: number): boolean {
  const state = stat(pid)?.[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}
