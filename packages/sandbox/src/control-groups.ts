import fs from 'node:fs';
import path from 'node:path';
import { onHostExit } from './host-exit.js';
import { forgetHostGroups, otherHostsGroups, recordHostGroups, takeTurn } from './hosts.js';

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

/** `freezer`: pausing a command's processes (cgroup v1's freezer, or v2's `cgroup.freeze`), see `pauseCommands`. */
export type Controller = 'pids' | 'memory' | 'freezer';
const CONTROLLERS: readonly Controller[] = ['pids', 'memory', 'freezer'];

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
  // Where this host's commands can be paused, for the other hosts to pause them in their turn.
  const freezable = located.hierarchies.filter((hierarchy) => hierarchy.controllers.includes('freezer'));
  if (freezable.length > 0) {
    recordHostGroups(freezable.map((hierarchy) => path.join(hierarchy.base, `toolwright-${process.pid}`)));
    onHostExit(forgetHostGroups);
  }
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
  const v1Freezer = mounts.some((mount) => mount.version === 1 && mount.controllers.includes('freezer'));
  for (const controller of CONTROLLERS) {
    // v2 freezes any group but the root (`cgroup.freeze`, no controller to enable); a v1 freezer hierarchy is preferred where one is mounted.
    if (v2Base && (controller === 'freezer' ? !v1Freezer : v2Enabled.includes(controller))) {
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
      const delegated = controllers.filter((controller) => controller !== 'freezer');
      const enabled = readWords(path.join(base, 'cgroup.subtree_control'));
      const wanted = delegated.filter((controller) => !enabled.includes(controller));
      if (wanted.length > 0) fs.writeFileSync(path.join(base, 'cgroup.subtree_control'), wanted.map((name) => `+${name}`).join(' '));
      if (delegated.length > 0) fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), delegated.map((name) => `+${name}`).join(' '));
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
    // Its commands killed (while frozen), the parent is thawed: a host that froze another's parent and died in its turn
    // leaves it frozen, and a frozen parent keeps its children frozen, killed or not — they would never die, nor their
    // groups go (found on a test machine: a command of a dead host frozen for over an hour). Removed at a later sweep
    // if its commands have not died yet.
    setFrozen(freezerPart(parent), false);
    removeChildren(parent);
    removeDirectory(parent);
  }
}

function removeChildren(parent: string): void {
  try {
    for (const child of fs.readdirSync(parent, { withFileTypes: true })) {
      if (!child.isDirectory()) continue;
      const dir = path.join(parent, child.name);
      // A host killed while others were paused leaves them frozen, deaf to every signal: thawed and killed first.
      const part = freezerPart(dir);
      killMembers(part);
      removeDirectory(dir);
    }
  } catch {
    // gone meanwhile
  }
}

let made = 0;
/** Groups of commands that have ended, empty, kept for the next ones (making and removing a used group costs more than rewriting its limits). */
const idle: GroupPart[][] = [];
const IDLE_KEPT = 8;
/** Groups in use or not yet emptied, removed when the host exits. */
const live = new Set<GroupPart[]>();
let exitHook = false;

/**
 * One command's control group in every hierarchy found, with `limits` written, or undefined where
 * there are none. The command joins it by writing `0` (itself) to each of `joinFiles`
 * before it starts anything (see `joinGroupCommand`); `remove()` once it has ended.
 */
export function makeCommandGroup(limits: GroupLimits): CommandGroup | undefined {
  const { hierarchies } = locate();
  if (hierarchies.length === 0) return undefined;
  for (let parts = idle.pop(); parts; parts = idle.pop()) {
    try {
      for (const part of parts) {
        writeLimits(part, limits);
        // Emptied while others were paused for a sandbox being made: the next command must not start paused.
        if (part.controllers.includes('freezer')) setFrozen(part, false);
      }
      return use(parts, limits);
    } catch {
      // It still holds more memory than the new limit (a write the kernel refuses): a fresh group instead.
      destroy(parts);
    }
  }
  const name = `c${++made}`;
  const parts: GroupPart[] = [];
  try {
    for (const hierarchy of hierarchies) {
      const dir = path.join(hierarchy.base, `toolwright-${process.pid}`, name);
      fs.mkdirSync(dir, { recursive: true });
      const part = { version: hierarchy.version, dir, controllers: hierarchy.controllers };
      parts.push(part);
      writeLimits(part, limits);
    }
  } catch (error) {
    for (const part of parts) removeDirectory(part.dir);
    throw new Error(`the command's control group could not be made: ${message(error)}`, { cause: error });
  }
  if (!exitHook) {
    exitHook = true;
    // Whatever is left when the host ends (a command still ending) goes with it, then the host's parent groups.
    onHostExit(() => {
      for (const left of [...live, ...idle]) destroy(left, true);
      for (const hierarchy of hierarchies) removeDirectory(path.join(hierarchy.base, `toolwright-${process.pid}`));
    });
  }
  return use(parts, limits);
}

function use(parts: GroupPart[], limits: GroupLimits): CommandGroup {
  live.add(parts);
  watchLeftFrozen();
  return new CommandGroup(parts, limits);
}

/** How often a host with commands looks whether another host left its parent group frozen. */
const LEFT_FROZEN_CHECK_MS = 2000;
let leftFrozenWatch: NodeJS.Timeout | undefined;
let thawing = false;

/**
 * Only the host whose turn it is freezes this host's parent group, and thaws it before giving the turn back; a host
 * that died in its turn left it frozen, with this host's commands in it, until some host made a sandbox again (a test
 * run saw a command stay frozen for minutes: nothing else was made). So while this host has commands it looks every
 * 2 s, and finding its parent group frozen, takes the turn (waiting out a live holder, which thaws it itself) and
 * thaws what is still frozen then.
 */
function watchLeftFrozen(): void {
  if (leftFrozenWatch) return;
  leftFrozenWatch = setInterval(() => {
    if (live.size === 0) {
      clearInterval(leftFrozenWatch);
      leftFrozenWatch = undefined;
      return;
    }
    if (thawing || !ownParents().some(freezeAsked)) return;
    thawing = true;
    takeTurn().then(
      (giveBack) => {
        for (const part of ownParents()) if (freezeAsked(part)) setFrozen(part, false);
        giveBack();
        thawing = false;
      },
      () => {
        thawing = false; // a holder that kept the turn 30 s: looked at again next time
      },
    );
  }, LEFT_FROZEN_CHECK_MS);
  leftFrozenWatch.unref();
}

/** This host's parent groups in the freezer hierarchies: the ones other hosts freeze. */
function ownParents(): GroupPart[] {
  return locate()
    .hierarchies.filter((hierarchy) => hierarchy.controllers.includes('freezer'))
    .map((hierarchy) => freezerPart(path.join(hierarchy.base, `toolwright-${process.pid}`)));
}

/** Whether the group was asked to freeze (frozen, or on its way). */
function freezeAsked(part: GroupPart): boolean {
  try {
    if (part.version === 2) return fs.readFileSync(path.join(part.dir, 'cgroup.freeze'), 'utf8').trim() === '1';
    return fs.readFileSync(path.join(part.dir, 'freezer.state'), 'utf8').trim() !== 'THAWED';
  } catch {
    return false;
  }
}

interface GroupPart {
  version: 1 | 2;
  dir: string;
  controllers: Controller[];
}

function writeLimits(part: GroupPart, limits: GroupLimits): void {
  const file = (name: string) => path.join(part.dir, name);
  if (part.controllers.includes('pids')) fs.writeFileSync(file('pids.max'), String(limits.processes));
  if (!part.controllers.includes('memory')) return;
  if (part.version === 2) {
    fs.writeFileSync(file('memory.max'), String(limits.memoryBytes));
    writeIfPresent(file('memory.swap.max'), '0');
  } else {
    // memory + swap may never be less than memory alone (absent without swap accounting): raised first, lowered after.
    writeIfPresent(file('memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
    fs.writeFileSync(file('memory.limit_in_bytes'), String(limits.memoryBytes));
    writeIfPresent(file('memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
  }
}

/** What the command's processes ran into: counted by the kernel since the group was made. */
export interface GroupEvents {
  /** Forks refused because the group held `processes` already. */
  processesRefused: number;
  /** Processes the kernel killed because the group used `memoryBytes`. */
  killedForMemory: number;
}

function eventsOf(parts: readonly GroupPart[]): GroupEvents {
  const events: GroupEvents = { processesRefused: 0, killedForMemory: 0 };
  for (const part of parts) {
    if (part.controllers.includes('pids')) events.processesRefused += counter(path.join(part.dir, 'pids.events'), 'max');
    if (part.controllers.includes('memory'))
      events.killedForMemory += counter(path.join(part.dir, part.version === 2 ? 'memory.events' : 'memory.oom_control'), 'oom_kill');
  }
  return events;
}

/** A control group given to one command (or one session shell). */
export class CommandGroup {
  /** Counted when the command got the group (a group is reused: its counters go on from its earlier commands). */
  private readonly start: GroupEvents;
  private seen: GroupEvents;
  private released = false;

  constructor(
    private readonly parts: readonly GroupPart[],
    readonly limits: GroupLimits,
  ) {
    this.start = eventsOf(parts);
    this.seen = this.start;
  }

  /** The files that list the group's processes, one per hierarchy. */
  get procsFiles(): string[] {
    return this.parts.map((part) => path.join(part.dir, 'cgroup.procs'));
  }

  /**
   * The files a process writes `0` (itself) to, to join the group: on cgroup v1 its `tasks` — moving
   * the writing thread alone spares the kernel's lock on every process's threads, whose taking waits
   * for an RCU grace period (about 10 ms a command here); the joining shell has one thread — and on
   * v2 `cgroup.procs`.
   */
  get joinFiles(): string[] {
    return this.parts.map((part) => path.join(part.dir, part.version === 1 ? 'tasks' : 'cgroup.procs'));
  }

  /** The events counted since the command got the group. */
  events(): GroupEvents {
    const now = eventsOf(this.parts);
    return { processesRefused: now.processesRefused - this.start.processesRefused, killedForMemory: now.killedForMemory - this.start.killedForMemory };
  }

  /** The limits reached since the last call, worded for the model (a session shell asks after each command). */
  reachedSinceLast(): string[] {
    const now = eventsOf(this.parts);
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

  /** Kills every process of the group (the sandbox and whatever it started, in any process group or session). */
  kill(): void {
    for (const part of this.parts) killMembers(part);
  }

  /**
   * Kills every process of the group and waits, blocking this thread for at most `ms`, until none is left: a
   * process killed inside a system call (an `open` already walking a path) finishes that call before it dies. Killed
   * again every 50 ms meanwhile: without `cgroup.kill` (cgroup v1) a process forked between the listing and the
   * kills is not in the list. Processes paused meanwhile (every command is, while another's sandbox is made) count as
   * gone: they act on the kill when thawed, before another instruction of theirs. A loaded machine can take a second
   * to end a sandbox (its mount namespace is undone as its last process exits).
   * @returns whether the group emptied in time.
   */
  killAndWait(ms = 5000): boolean {
    const started = Date.now();
    const nap = new Int32Array(new SharedArrayBuffer(4));
    for (let killed = -Infinity; ;) {
      if (Date.now() - killed >= 50) {
        this.kill();
        killed = Date.now();
      }
      if (this.parts.every((part) => !fs.existsSync(part.dir) || isEmpty(part))) return true;
      // Paused with the kill pending (another command's sandbox is being made): it dies when thawed, before it runs on.
      if (this.parts.some((part) => part.controllers.includes('freezer') && isFrozen(part))) return true;
      if (Date.now() - started > ms) return false;
      Atomics.wait(nap, 0, 0, 2);
    }
  }

  /**
   * Gives the group back once the command has ended: kept for a later command once its processes are
   * gone (they die with the sandbox's first process, but may take a moment to), else removed; after
   * two seconds what is still there is killed. `whenEmpty` runs once no process of the group is left
   * (never, if one outlives ten seconds of killing: what the sandbox holds is then held until the
   * host exits). The handle joins nothing afterwards.
   */
  remove(whenEmpty?: () => void): void {
    if (this.released) return;
    this.released = true;
    const parts = this.parts as GroupPart[];
    const started = Date.now();
    const attempt = () => {
      const waited = Date.now() - started;
      if (waited > 2000) for (const part of parts) killMembers(part);
      if (parts.some((part) => !fs.existsSync(part.dir))) {
        destroy(parts);
        return whenEmpty?.();
      }
      if (parts.every((part) => isEmpty(part))) {
        live.delete(parts);
        if (idle.length < IDLE_KEPT) idle.push(parts);
        else destroy(parts);
        return whenEmpty?.();
      }
      if (waited > 10_000) return; // left for the host's exit, or the sweep of the next host
      setTimeout(attempt, 50).unref();
    };
    attempt();
  }
}

/** Removes a group's directories (killing what is in them first when `kill`). */
function destroy(parts: GroupPart[], kill = false): void {
  live.delete(parts);
  for (const part of parts) {
    if (kill) killMembers(part);
    removeDirectory(part.dir);
  }
}

function isEmpty(part: GroupPart): boolean {
  try {
    return fs.readFileSync(path.join(part.dir, 'cgroup.procs'), 'utf8').trim() === '';
  } catch {
    return false;
  }
}

/** How long a command may take to pause before the one waiting lets every command go on and tries again. */
const PAUSE_WAIT_MS = 2000;
/**
 * How many times the pause is tried before the one waiting gives up. A command may be slow to pause for a while (a
 * machine under load, a group being killed for its memory or its processes): thawed, it moves on, and a later try
 * finds it pausable. Between tries everything runs, for 100 ms, then 200 ms. The hosts' turn is held throughout: a
 * command that can never be paused costs a launch 6.3 s at most before it is refused, well within the 30 s another
 * host waits for the turn.
 */
const PAUSE_ATTEMPTS = 3;
let pauseTurn: Promise<void> = Promise.resolve();

/**
 * Pauses every command of this process that has a control group (cgroup v1's freezer or v2's
 * `cgroup.freeze`), and those of the user's other Toolwright processes, until the returned function
 * is called, one caller at a time (of all those processes). A sandbox is planned
 * from what the workspace holds and then mounted by path: a command running beside it (a background
 * job, a session shell's) could swap a folder for a link between the two, and bubblewrap would mount
 * the host's directory the link leads to, or make its mount point there. Paused, nothing but the
 * host changes the workspace until the new sandbox stands. Where groups cannot be paused, the callers
 * still take turns and the others run on (docs/security.md says so). Rejects when a command could not
 * be paused in time in any of a few tries (all are resumed between tries and then; `pauseInTries`). There is no time after which the others run on by themselves:
 * a sandbox slow to be made (thousands of mounts) would be made with them running; the caller resumes when
 * the sandbox stands or its command has ended (its own deadline ends a sandbox that never stands).
 */
export function pauseCommands(): Promise<() => void> {
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const turn = pauseTurn.then(() => freezeLive());
  pauseTurn = turn.then(
    () => finished,
    () => undefined,
  );
  return turn.then(
    (thaw) => {
      let resumed = false;
      const resume = () => {
        if (resumed) return;
        resumed = true;
        thaw();
        done();
      };
      return resume;
    },
    (error: unknown) => {
      done();
      throw error;
    },
  );
}

/**
 * In the hosts' turn (`takeTurn`: one Toolwright process of the user at a time makes a sandbox), freezes
 * this process's commands and every other host's (their parent groups: a command of another `serve`
 * on the same workspace is as able to swap a folder). The returned function thaws them and gives the turn back.
 */
async function freezeLive(): Promise<() => void> {
  const giveBack = await takeTurn();
  try {
    const thaw = await pauseInTries(freezeOnce);
    return () => {
      thaw();
      giveBack();
    };
  } catch (error) {
    giveBack();
    throw error;
  }
}

/** Raised when a command could not be paused in time: everything was thawed, and a later try may succeed. */
export class PauseTimeout extends Error {}

/**
 * Tries `freeze` up to `attempts` times while it gives up on a command that would not pause in time
 * (`PauseTimeout`), with a wait that grows between tries; any other failure is final at once.
 */
export async function pauseInTries<T>(freeze: () => Promise<T>, attempts: number = PAUSE_ATTEMPTS, waitMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await freeze();
    } catch (error) {
      if (!(error instanceof PauseTimeout)) throw error;
      if (attempt >= attempts) {
        throw new PauseTimeout(
          `a command running beside this one could not be paused while its sandbox was made (tried ${attempts} time${attempts === 1 ? '' : 's'}, ${PAUSE_WAIT_MS / 1000} s each)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs * attempt));
    }
  }
}

async function freezeOnce(): Promise<() => void> {
  const others = otherHostsGroups().map(freezerPart);
  // With the turn held nobody else freezes anything: a parent group found frozen was left so by a host that died
  // in its turn (found by an eighth pass: those hosts' commands, and the next ones, stayed frozen for good). Thawed.
  for (const part of [...others, ...ownParents()]) setFrozen(part, false);
  const parts = [...[...live].flat().filter((part) => part.controllers.includes('freezer')), ...others];
  if (parts.length === 0) return () => {};
  const frozen: GroupPart[] = [];
  const thaw = () => {
    for (const part of frozen) setFrozen(part, false);
  };
  for (const part of parts) if (setFrozen(part, true)) frozen.push(part);
  const started = Date.now();
  while (frozen.some((part) => !isFrozen(part))) {
    if (Date.now() - started > PAUSE_WAIT_MS) {
      thaw();
      throw new PauseTimeout('a command running beside this one could not be paused in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return thaw;
}

/** A group known by its folder only (another host's, a stale one), as its freezer. */
function freezerPart(dir: string): GroupPart {
  return { version: fs.existsSync(path.join(dir, 'cgroup.freeze')) ? 2 : 1, dir, controllers: ['freezer'] };
}

function setFrozen(part: GroupPart, frozen: boolean): boolean {
  if (part.version === 2) return writeIfPresent(path.join(part.dir, 'cgroup.freeze'), frozen ? '1' : '0');
  return writeIfPresent(path.join(part.dir, 'freezer.state'), frozen ? 'FROZEN' : 'THAWED');
}

/** Whether the group's processes are all paused (a group removed meanwhile holds none). */
function isFrozen(part: GroupPart): boolean {
  try {
    if (part.version === 2) return counter(path.join(part.dir, 'cgroup.events'), 'frozen') === 1;
    return fs.readFileSync(path.join(part.dir, 'freezer.state'), 'utf8').trim() === 'FROZEN';
  } catch {
    return true;
  }
}

function killMembers(part: GroupPart): void {
  // Killed while still frozen, then thawed: a frozen process acts on SIGKILL once thawed, and dies then before
  // another instruction of its own runs. Thawed first, it would run meanwhile — while another command's sandbox
  // may be being made with every other command paused (a session ended for room, a group swept).
  if (!(part.version === 2 && writeIfPresent(path.join(part.dir, 'cgroup.kill'), '1'))) {
    let members: string[] = [];
    try {
      members = fs.readFileSync(path.join(part.dir, 'cgroup.procs'), 'utf8').split('\n');
    } catch {
      // the group is gone
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
  if (part.controllers.includes('freezer')) setFrozen(part, false);
}

/**
 * `launch` preceded by joining `group`: a `/bin/sh` moves itself into each of the group's hierarchies
 * (`joinFiles`), then becomes the program (so the program and everything it starts are in the
 * group from their first instruction); a group it cannot join stops the command (exit 125).
 */
export function joinGroupCommand(group: CommandGroup, file: string, args: readonly string[]): { file: string; args: string[] } {
  const script =
    'for f do [ "$f" = -- ] && { shift; break; }; echo 0 > "$f" || { echo "toolwright: the command could not join its control group" >&2; exit 125; }; shift; done; exec "$@"';
  return { file: '/bin/sh', args: ['-c', script, 'toolwright-join', ...group.joinFiles, '--', file, ...args] };
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
