import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sharedSubdirectory } from './shared-directory.js';
import { HELPER_ENV } from './system-programs.js';

/**
 * The watchdog: a bash that reads group ids from a pipe only this process holds, and kills every
 * group still listed when the pipe closes — which the kernel does however this process ends
 * (exit, crash, SIGTERM, SIGINT, SIGKILL). It ignores the terminal's signals and sits in its own
 * process group, so a Ctrl-C that stops the host does not stop the watchdog first. Each group is
 * registered with its leader's start time, so a group id that has been reused is never killed.
 */
const WATCHDOG = `# toolwright process watchdog
trap '' INT TERM HUP QUIT PIPE
declare -A groups
while read -r op id start; do
  case "$op" in
    +) groups[$id]=$start ;;
    -) unset "groups[$id]" ;;
  esac
done
for g in "\${!groups[@]}"; do
  # A live leader must be the one registered (same start time); with no leader, the members are ours.
  if read -r stat 2>/dev/null < /proc/$g/stat; then
    fields=(\${stat##*) })
    [ "\${fields[19]}" = "\${groups[$g]}" ] || continue
  fi
  kill -KILL -- "-$g" 2>/dev/null
  # Members that left the group (GNU timeout makes its own) stay in the session the leader made.
  for f in /proc/[0-9]*/stat; do
    read -r stat 2>/dev/null < "$f" || continue
    fields=(\${stat##*) })
    [ "\${fields[3]}" = "$g" ] && [ "\${fields[19]}" -ge "\${groups[$g]:-0}" ] 2>/dev/null && kill -KILL "\${f//[^0-9]/}" 2>/dev/null
  done
done`;

interface GroupRecord {
  pgid: number;
  start: string | undefined;
}
interface HostRecord {
  pid: number;
  start: string | undefined;
  groups: GroupRecord[];
}

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

  /** Starts the watchdog now, so that registering a group later costs only a write. */
  prepare(): void {
    this.ensureWatchdog();
  }

  /**
   * Tracks a new process group (its leader's pid). Resolves once the registration has been handed to
   * the watchdog's pipe: only then may the group's command start.
   */
  add(pgid: number): Promise<void> {
    const group = { pgid, start: startTime(pgid) };
    this.groups.set(pgid, group);
    this.save();
    const stdin = this.ensureWatchdog()?.stdin;
    if (!stdin?.writable) return Promise.resolve();
    return new Promise((resolve) => stdin.write(registration(group), () => resolve()));
  }

  /** Forgets a group when its leader has exited (and its members have been killed). */
  remove(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    if (this.watchdog?.stdin?.writable) this.watchdog.stdin.write(`- ${pgid}\n`);
    this.save();
  }

  /** SIGKILL to every tracked group (synchronous: safe in an `exit` handler; their leaders have not exited). */
  killAll(): void {
    for (const group of this.groups.values()) signalGroup(group.pgid, 'SIGKILL', false, group.start);
    this.groups.clear();
    this.save();
  }

  private ensureWatchdog(): ChildProcess | undefined {
    if (this.watchdog && this.watchdog.exitCode === null && this.watchdog.signalCode === null) return this.watchdog;
    try {
      const watchdog = spawn('/bin/bash', ['--noprofile', '--norc', '-c', WATCHDOG], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: HELPER_ENV });
      watchdog.on('error', () => undefined);
      watchdog.stdin.on('error', () => undefined);
      // Neither the watchdog nor its pipe may keep this process alive.
      watchdog.unref();
      (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
      // A watchdog that died (killed by hand) is replaced, and told about every live group.
      watchdog.on('exit', () => {
        if (this.watchdog === watchdog) this.watchdog = undefined;
      });
      this.watchdog = watchdog;
      for (const group of this.groups.values()) watchdog.stdin.write(registration(group));
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

function registration(group: GroupRecord): string {
  return `+ ${group.pgid} ${group.start ?? 'unknown'}\n`;
}

/** In the user's own folder at a fixed place (`shared-directory.ts`): never in TMPDIR, which may lie in a workspace. */
function recordDirectory(): string {
  return sharedSubdirectory('processes');
}

/** Kills the groups recorded by hosts that are no longer running, then removes their records. */
function reapOrphans(directory: string): number {
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
      if (group.start !== undefined && startTime(group.pgid) === group.start) {
        signalGroup(group.pgid, 'SIGKILL', false, group.start);
        killed++;
      } else {
        killed += killMembers(group);
      }
    }
    fs.rmSync(full, { force: true });
  }
  return killed;
}

/**
 * Signals a process group whose leader (pid `pgid`) may already have been reaped. Once the leader is
 * reaped, the group id is ours only while members remain: Linux never hands out a number still used
 * as a group id, but an empty group's number may go to a new process at once (pids wrap quickly on a
 * busy machine), and signalling it would hit a stranger's group. So after the leader has exited the
 * group is signalled only if it has members and no new process holds the leader's pid.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals, leaderReaped: boolean, start = startTime(pgid)): void {
  const onProc = procStat(process.pid) !== undefined;
  if (leaderReaped && onProc && procStat(pgid) !== undefined) return; // the number now belongs to another process
  const members = onProc ? sessionMembers(pgid, start) : [];
  if (!leaderReaped || !onProc || members.length > 0) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }
  // A member may have left the group (GNU `timeout` makes its own) but not the session the leader
  // made (`detached` is setsid): those are signalled one by one. Started after the leader, so a
  // reused pid is never one of them.
  for (const pid of members) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Processes in the session (or group) `leader` made, started no earlier than it. */
function sessionMembers(leader: number, start: string | undefined): number[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const entry of pids) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat || (Number(stat[3]) !== leader && Number(stat[2]) !== leader)) continue;
    if (start !== undefined && Number(stat[19]) < Number(start)) continue;
    members.push(Number(entry));
  }
  return members;
}

/**
 * A group whose leader is gone may still have members: those started after the leader are its own —
 * unless a new process now holds the leader's pid (then the number was reused: nothing is ours).
 */
function killMembers(group: GroupRecord): number {
  if (procStat(group.pgid) !== undefined || group.start === undefined) return 0;
  let killed = 0;
  for (const pid of sessionMembers(group.pgid, group.start)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // already gone
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
/** `/proc/<pid>/stat` after the command name: [state, ppid, pgrp, session, ..., starttime at 19]; undefined when gone. */
export function procStat(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When the process started (clock ticks since boot), or undefined where /proc is not there. */
export function startTime(pid: number): string | undefined {
  return procStat(pid)?.[19];
}
