import fs from 'node:fs';
import path from 'node:path';

/**
 * Limits the kernel keeps for a command's processes together, where the per-process limits of
 * `ulimit` cannot: RLIMIT_NPROC does not apply to root, and RLIMIT_DATA bounds each process alone
 * (a hundred processes may each take the whole amount). A control group counts every process and
 * thread the command starts (`pids.max`) and all the memory they use (`memory.max`, or cgroup v1's
 * `memory.limit_in_bytes`; swap included where the kernel accounts it), and they cannot leave it.
 */
export interface GroupLimits {
  processes: number;
  memoryBytes: number;
}

/** The limits a control group can keep, and the one it could not (with why). */
export type ControlGroupSupport =
  | { available: true; controllers: readonly Controller[]; missing: readonly { controller: Controller; reason: string }[] }
  | { available: false; reason: string };

export type Controller = 'pids' | 'memory';
const CONTROLLERS: readonly Controller[] = ['pids', 'memory'];

/** Where one controller's groups are made: a directory of this process's own group, on cgroup v1 or v2. */
interface Hierarchy {
  version: 1 | 2;
  /** This process's group in that hierarchy: the command groups are made below it. */
  base: string;
  controllers: Controller[];
}

/** A mounted cgroup file system (from `/proc/self/mountinfo`). */
export interface CgroupMount {
  mountPoint: string;
  /** The group the mount shows as its root (a container sees its own group as `/`). */
  root: string;
  version: 1 | 2;
  /** cgroup v1: the controllers of this hierarchy. */
  controllers: string[];
}

/** The cgroup file systems a mountinfo text lists. */
export function cgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const fields = before.split(' ');
    const [fsType, , superOptions = ''] = after.split(' ');
    const root = fields[3];
    const mountPoint = fields[4];
    if (root === undefined || mountPoint === undefined) continue;
    if (fsType === 'cgroup2') mounts.push({ mountPoint: unescape(mountPoint), root: unescape(root), version: 2, controllers: [] });
    else if (fsType === 'cgroup') mounts.push({ mountPoint: unescape(mountPoint), root: unescape(root), version: 1, controllers: superOptions.split(',') });
  }
  return mounts;
}

/** mountinfo writes space, tab, newline and backslash in paths as octal escapes. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** This process's group per hierarchy (from `/proc/self/cgroup`): v1 by controller, v2 under `''`. */
export function ownGroups(procCgroup: string): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of procCgroup.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, names = '', group = '/'] = match;
    if (names === '') groups.set('', group);
    else for (const name of names.split(',')) groups.set(name, group);
  }
  return groups;
}

/** The directory of `group` in `mount`, or undefined when the mount does not show it (a group outside a container's view). */
function groupDirectory(mount: CgroupMount, group: string): string | undefined {
  const relative = path.posix.relative(mount.root, group);
  if (relative.startsWith('..') || path.posix.isAbsolute(relative)) return undefined;
  return path.join(mount.mountPoint, relative);
}

let located: { hierarchies: Hierarchy[]; support: ControlGroupSupport } | undefined;

/**
 * Whether commands can get a control group here, and with which controllers: found once per process
 * from `/proc/self/mountinfo` and `/proc/self/cgroup`, each controller on cgroup v2 where it is
 * enabled there, else on its v1 hierarchy, and only where this process may make groups below its own
 * (as root in a container, or in a delegated group). Stale groups of hosts that died are removed on the way.
 */
export function controlGroupSupport(): ControlGroupSupport {
  return locate().support;
}

function locate(): { hierarchies: Hierarchy[]; support: ControlGroupSupport } {
  if (located) return located;
  if (process.platform !== 'linux') return (located = { hierarchies: [], support: { available: false, reason: `${process.platform} has no control groups` } });
  let mountinfo: string;
  let procCgroup: string;
  try {
    mountinfo = fs.readFileSync('/proc/self/mountinfo', 'utf8');
    procCgroup = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch (error) {
    return (located = { hierarchies: [], support: { available: false, reason: `/proc cannot be read (${message(error)})` } });
  }
  located = findHierarchies(cgroupMounts(mountinfo), ownGroups(procCgroup));
  return located;
}

/** For tests: forget what was found. */
export function forgetControlGroupSupport(): void {
  located = undefined;
}

function findHierarchies(mounts: CgroupMount[], own: Map<string, string>): { hierarchies: Hierarchy[]; support: ControlGroupSupport } {
  const hierarchies: Hierarchy[] = [];
  const missing: { controller: Controller; reason: string }[] = [];
  const v2Mount = mounts.find((mount) => mount.version === 2);
  const v2Group = own.get('');
  const v2Base = v2Mount && v2Group !== undefined ? groupDirectory(v2Mount, v2Group) : undefined;
  const v2Enabled = v2Base ? readWords(path.join(v2Base, 'cgroup.controllers')) : [];
  const onV2: Controller[] = [];
  for (const controller of CONTROLLERS) {
    if (v2Base && v2Enabled.includes(controller)) {
      onV2.push(controller);
      continue;
    }
    const mount = mounts.find((candidate) => candidate.version === 1 && candidate.controllers.includes(controller));
    const group = own.get(controller);
    const base = mount && group !== undefined ? groupDirectory(mount, group) : undefined;
    if (!base) {
      missing.push({ controller, reason: `no ${controller} controller is mounted where this process can see its group` });
      continue;
    }
    const problem = prepareBase(base, 1, [controller]);
    if (problem) missing.push({ controller, reason: problem });
    else hierarchies.push({ version: 1, base, controllers: [controller] });
  }
  if (v2Base && onV2.length > 0) {
    const problem = prepareBase(v2Base, 2, onV2);
    if (problem) for (const controller of onV2) missing.push({ controller, reason: problem });
    else hierarchies.push({ version: 2, base: v2Base, controllers: onV2 });
  }
  const controllers = hierarchies.flatMap((hierarchy) => hierarchy.controllers);
  if (controllers.length === 0)
    return {
      hierarchies,
      support: { available: false, reason: missing.map((entry) => `${entry.controller}: ${entry.reason}`).join('; ') || 'no control groups' },
    };
  return { hierarchies, support: { available: true, controllers, missing } };
}

/**
 * Makes this process's parent group below `base` (`toolwright-<pid>`), which the command groups go
 * in, after removing those of hosts that have died; on v2 the parent passes the controllers down to
 * its children (the group itself holds no process, as v2 requires). Undefined when that worked, else why not.
 */
function prepareBase(base: string, version: 1 | 2, controllers: Controller[]): string | undefined {
  sweepStale(base);
  const parent = path.join(base, `toolwright-${process.pid}`);
  try {
    fs.mkdirSync(parent, { recursive: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `a group cannot be made in ${base} (${message(error)})`;
    // Left by an earlier host that had this process id (a container's numbering starts again): its groups are stale.
    removeChildren(parent);
  }
  if (version === 2) {
    try {
      // The base must hand the controllers to its children first (refused when it holds processes itself and is not the root).
      const enabled = readWords(path.join(base, 'cgroup.subtree_control'));
      const wanted = controllers.filter((controller) => !enabled.includes(controller));
      if (wanted.length > 0) fs.writeFileSync(path.join(base, 'cgroup.subtree_control'), wanted.map((name) => `+${name}`).join(' '));
      fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), controllers.map((name) => `+${name}`).join(' '));
    } catch (error) {
      removeDirectory(parent);
      return `the controllers cannot be delegated below ${base} (${message(error)})`;
    }
  }
  return undefined;
}

/** Removes the parent groups (and their empty command groups) of hosts that are no longer running. */
function sweepStale(base: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^toolwright-(\d+)$/.exec(name);
    if (!match || Number(match[1]) === process.pid || fs.existsSync(`/proc/${match[1]}`)) continue;
    const parent = path.join(base, name);
    removeChildren(parent);
    removeDirectory(parent);
  }
}

function removeChildren(parent: string): void {
  try {
    for (const child of fs.readdirSync(parent, { withFileTypes: true })) if (child.isDirectory()) removeDirectory(path.join(parent, child.name));
  } catch {
    // gone meanwhile
  }
}

let made = 0;
const live = new Set<CommandGroup>();
let exitHook = false;

/**
 * One command's control group in every hierarchy found, with `limits` written, or undefined where
 * there are none. The command joins it by writing its own process id to each of `procsFiles`
 * before it starts anything (see `joinGroupCommand`); `remove()` once it has ended.
 */
export function makeCommandGroup(limits: GroupLimits): CommandGroup | undefined {
  const { hierarchies } = locate();
  if (hierarchies.length === 0) return undefined;
  const name = `c${++made}`;
  const parts: GroupPart[] = [];
  try {
    for (const hierarchy of hierarchies) {
      const dir = path.join(hierarchy.base, `toolwright-${process.pid}`, name);
      fs.mkdirSync(dir, { recursive: true });
      parts.push({ version: hierarchy.version, dir, controllers: hierarchy.controllers });
      writeLimits(hierarchy.version, dir, hierarchy.controllers, limits);
    }
  } catch (error) {
    for (const part of parts) removeDirectory(part.dir);
    throw new Error(`the command's control group could not be made: ${message(error)}`, { cause: error });
  }
  const group = new CommandGroup(parts, limits);
  live.add(group);
  if (!exitHook) {
    exitHook = true;
    // Whatever is left when the host ends (a command still ending) goes with it, then the host's parent groups.
    process.once('exit', () => {
      for (const left of live) left.removeNow();
      for (const hierarchy of hierarchies) removeDirectory(path.join(hierarchy.base, `toolwright-${process.pid}`));
    });
  }
  return group;
}

interface GroupPart {
  version: 1 | 2;
  dir: string;
  controllers: Controller[];
}

function writeLimits(version: 1 | 2, dir: string, controllers: Controller[], limits: GroupLimits): void {
  if (controllers.includes('pids')) fs.writeFileSync(path.join(dir, 'pids.max'), String(limits.processes));
  if (!controllers.includes('memory')) return;
  if (version === 2) {
    fs.writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
    writeIfPresent(path.join(dir, 'memory.swap.max'), '0');
  } else {
    fs.writeFileSync(path.join(dir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // memory + swap may not be less than memory alone, so it is written second; absent without swap accounting.
    writeIfPresent(path.join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
  }
}

/** What the command's processes ran into: counted by the kernel since the group was made. */
export interface GroupEvents {
  /** Forks refused because the group held `processes` already. */
  processesRefused: number;
  /** Processes the kernel killed because the group used `memoryBytes`. */
  killedForMemory: number;
}

/** A control group made for one command (or one session shell). */
export class CommandGroup {
  private seen: GroupEvents = { processesRefused: 0, killedForMemory: 0 };
  private removed = false;

  constructor(
    private readonly parts: readonly GroupPart[],
    readonly limits: GroupLimits,
  ) {}

  /** The files the command writes its process id to, to join the group. */
  get procsFiles(): string[] {
    return this.parts.map((part) => path.join(part.dir, 'cgroup.procs'));
  }

  /** The events counted so far. */
  events(): GroupEvents {
    const events: GroupEvents = { processesRefused: 0, killedForMemory: 0 };
    for (const part of this.parts) {
      if (part.controllers.includes('pids')) events.processesRefused += counter(path.join(part.dir, 'pids.events'), 'max');
      if (part.controllers.includes('memory'))
        events.killedForMemory += counter(path.join(part.dir, part.version === 2 ? 'memory.events' : 'memory.oom_control'), 'oom_kill');
    }
    return events;
  }

  /** The limits reached since the last call, worded for the model (a session shell asks after each command). */
  reachedSinceLast(): string[] {
    const now = this.events();
    const reached: string[] = [];
    if (now.processesRefused > this.seen.processesRefused)
      reached.push(
        `processes: the command ran ${this.limits.processes} processes and threads at once, the most it may; the kernel refused ${now.processesRefused - this.seen.processesRefused} more (fork: Resource temporarily unavailable)`,
      );
    if (now.killedForMemory > this.seen.killedForMemory)
      reached.push(
        `memory: the command's processes together used ${formatBytes(this.limits.memoryBytes)}, the most they may; the kernel killed ${now.killedForMemory - this.seen.killedForMemory} of them`,
      );
    this.seen = now;
    return reached;
  }

  /**
   * Removes the group once its processes are gone: they die with the sandbox's first process, but
   * may take a moment to; after two seconds what is still there is killed.
   */
  remove(): void {
    if (this.removed) return;
    const started = Date.now();
    const attempt = () => {
      if (this.tryRemove(Date.now() - started > 2000)) return;
      if (Date.now() - started > 10_000) return; // left for the sweep of the next host
      setTimeout(attempt, 50).unref();
    };
    attempt();
  }

  /** Kills what is left and removes the group at once (the host is exiting). */
  removeNow(): void {
    if (!this.removed) this.tryRemove(true);
  }

  private tryRemove(kill: boolean): boolean {
    let all = true;
    for (const part of this.parts) {
      if (!fs.existsSync(part.dir)) continue;
      if (kill) killMembers(part);
      if (!removeDirectory(part.dir)) all = false;
    }
    if (all) {
      this.removed = true;
      live.delete(this);
    }
    return all;
  }
}

function killMembers(part: GroupPart): void {
  if (part.version === 2 && writeIfPresent(path.join(part.dir, 'cgroup.kill'), '1')) return;
  let members: string[];
  try {
    members = fs.readFileSync(path.join(part.dir, 'cgroup.procs'), 'utf8').split('\n');
  } catch {
    return;
  }
  for (const member of members) {
    if (!/^\d+$/.test(member)) continue;
    try {
      process.kill(Number(member), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * `launch` preceded by joining `group`: a `/bin/sh` writes its own process id to each group's
 * `cgroup.procs`, then becomes the program (so the program and everything it starts are in the
 * group from their first instruction); a group it cannot join stops the command (exit 125).
 */
export function joinGroupCommand(group: CommandGroup, file: string, args: readonly string[]): { file: string; args: string[] } {
  const script =
    'for f do [ "$f" = -- ] && { shift; break; }; echo $$ > "$f" || { echo "toolwright: the command could not join its control group" >&2; exit 125; }; shift; done; exec "$@"';
  return { file: '/bin/sh', args: ['-c', script, 'toolwright-join', ...group.procsFiles, '--', file, ...args] };
}

function counter(file: string, key: string): number {
  try {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const [name, value] = line.split(/\s+/);
      if (name === key && value !== undefined && /^\d+$/.test(value)) return Number(value);
    }
  } catch {
    // the group is gone
  }
  return 0;
}

function readWords(file: string): string[] {
  try {
    return fs.readFileSync(file, 'utf8').trim().split(/\s+/);
  } catch {
    return [];
  }
}

function writeIfPresent(file: string, value: string): boolean {
  try {
    fs.writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

function removeDirectory(dir: string): boolean {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
