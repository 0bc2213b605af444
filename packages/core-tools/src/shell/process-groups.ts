import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The watchdog: a bash that reads group ids from a pipe only this process holds, and kills every
 * group still listed when the pipe closes — which the kernel does however this process ends
 * (exit, crash, SIGTERM, SIGINT, SIGKILL). It ignores the terminal's signals and sits in its own
 * process group, so a Ctrl-C that stops the host does not stop the watchdog first.
 */
const WATCHDOG = `# toolwright process watchdog
trap '' INT TERM HUP QUIT PIPE
declare -A groups
while IFS= read -r line; do
  case "$line" in
    +[0-9]*) groups[\${line#+}]=1 ;;
    -[0-9]*) unset "groups[\${line#-}]" ;;
  esac
done
for g in "\${!groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done`;

interface GroupRecord { pgid: number; start: string | undefined }
interface HostRecord { pid: number; start: string | undefined; groups: GroupRecord[] }

/**
 * Every process group the shell tools start, so that none outlives this process: the watchdog
 * kills them when this process dies, an `exit` handler kills them on a normal exit, and a record
 * file per host (in the temporary directory) lets the next start find and kill the groups of a
 * host that died with its watchdog (both killed at once). Groups are identified by their leader's
 * start time as well as their id, so a reused id is never killed.
 */
export class ProcessGroups {
  private static instance: ProcessGroups | undefined;
  private readonly groups = new Map<number, GroupRecord>();
  private watchdog: ChildProcess | undefined;
  private readonly recordFile: string;

  /** The one registry of this process (the record file and watchdog are per process). */
  static shared(): ProcessGroups {
    ProcessGroups.instance ??= new ProcessGroups(recordDirectory());
    return ProcessGroups.instance;
  }

  constructor(private readonly directory: string) {
    this.recordFile = path.join(directory, `${process.pid}.json`);
    reapOrphans(directory);
    process.once('exit', () => this.killAll());
  }

  /** Tracks a new process group (its leader's pid). */
  add(pgid: number): void {
    this.groups.set(pgid, { pgid, start: startTime(pgid) });
    this.ensureWatchdog()?.stdin?.write(`+${pgid}\n`);
    this.save();
  }

  /** Forgets a group once it has been killed or has ended. */
  remove(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    if (this.watchdog?.stdin?.writable) this.watchdog.stdin.write(`-${pgid}\n`);
    this.save();
  }

  /** SIGKILL to every tracked group (synchronous: safe in an `exit` handler). */
  killAll(): void {
    for (const pgid of this.groups.keys()) killGroup(pgid);
    this.groups.clear();
    this.save();
  }

  private ensureWatchdog(): ChildProcess | undefined {
    if (this.watchdog && this.watchdog.exitCode === null && this.watchdog.signalCode === null) return this.watchdog;
    try {
      const watchdog = spawn('/bin/bash', ['--noprofile', '--norc', '-c', WATCHDOG], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
      watchdog.on('error', () => undefined);
      watchdog.stdin!.on('error', () => undefined);
      // Neither the watchdog nor its pipe may keep this process alive.
      watchdog.unref();
      (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
      // A watchdog that died (killed by hand) is replaced, and told about every live group.
      watchdog.on('exit', () => { if (this.watchdog === watchdog) this.watchdog = undefined; });
      this.watchdog = watchdog;
      for (const pgid of this.groups.keys()) watchdog.stdin!.write(`+${pgid}\n`);
      return watchdog;
    } catch {
      return undefined;
    }
  }

  private save(): void {
    try {
      if (this.groups.size === 0) {
        fs.rmSync(this.recordFile, { force: true });
        return;
      }
      const record: HostRecord = { pid: process.pid, start: startTime(process.pid), groups: [...this.groups.values()] };
      fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      const temp = `${this.recordFile}.${Date.now()}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
      fs.renameSync(temp, this.recordFile);
    } catch {
      // The record is a second line of defence; the watchdog and the exit handler still hold.
    }
  }
}

function recordDirectory(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `toolwright-processes-${uid}`);
}

/** Kills the groups recorded by hosts that are no longer running, then removes their records. */
export function reapOrphans(directory: string): number {
  let killed = 0;
  let files: string[];
  try {
    files = fs.readdirSync(directory).filter((f) => /^\d+\.json$/.test(f));
  } catch {
    return 0;
  }
  for (const file of files) {
    const full = path.join(directory, file);
    let record: HostRecord;
    try {
      record = JSON.parse(fs.readFileSync(full, 'utf8')) as HostRecord;
    } catch {
      continue;
    }
    if (record.pid === process.pid || (isRunning(record.pid) && startTime(record.pid) === record.start)) continue;
    for (const group of record.groups ?? []) {
      if (!Number.isInteger(group.pgid) || group.pgid <= 1) continue;
      if (group.start === undefined || startTime(group.pgid) === group.start) {
        if (killGroup(group.pgid)) killed++;
      } else {
        killed += killMembers(group);
      }
    }
    fs.rmSync(full, { force: true });
  }
  return killed;
}

function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** A group whose leader is gone may still have members: those started after the leader are its own. */
function killMembers(group: GroupRecord): number {
  let killed = 0;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    const stat = procStat(Number(pid));
    if (stat && Number(stat[2]) === group.pgid && Number(stat[19]) >= Number(group.start)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
        killed++;
      } catch {
        // already gone
      }
    }
  }
  return killed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The fields of /proc/PID/stat after the command name: [state, ppid, pgrp, ...]; starttime is index 19. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When the process started (clock ticks since boot), or undefined where /proc is not there. */
function startTime(pid: number): string | undefined {
  return procStat(pid)?.[19];
}
