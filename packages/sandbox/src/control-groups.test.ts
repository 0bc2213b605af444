import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  cgroupMounts,
  controlGroupSupport,
  forgetControlGroupSupport,
  joinGroupCommand,
  makeCommandGroup,
  ownGroups,
  pauseCommands,
  pauseInTries,
  PauseTimeout,
  type CommandGroup,
} from './control-groups.js';
import { takeTurn } from './hosts.js';

/**
 * A pause gives up when a command beside it cannot be frozen in time (another test file's memory or fork bomb being
 * killed, run in parallel by CI): what these tests check is the pause and the turns, so such a pause is tried again.
 */
async function pauseRetrying(): Promise<() => void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pauseCommands();
    } catch (error) {
      if (attempt === 5 || !/could not be paused/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Reads the count a looping command writes (`echo $i > file`). The shell empties the file before each write, so a read
 * in between — or a pause that caught the command there — finds it empty: the last count seen stands then (a CI run
 * read 0 there and failed).
 */
/**
 * The count once it has grown past `from`, read every 20 ms for at most 10 s: a loop thawed on a loaded machine may run
 * late (a CI run saw none of its steps within 300 ms), while one left frozen never grows.
 */
async function countPast(count: () => number, from: number): Promise<number> {
  const until = performance.now() + 10_000;
  while (count() <= from && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return count();
}

/**
 * A command counting in a group of its own, and a way to freeze this process's parent groups as a host killed in its
 * turn leaves another's; `stop()` thaws them, kills the command and removes its group.
 */
function countingInParentGroups(): {
  group: CommandGroup;
  count: () => number;
  freezeParents: (frozen: boolean) => void;
  stop: () => Promise<void>;
} {
  const group = makeCommandGroup({ processes: 16, memoryBytes: 64 * 1024 * 1024 })!;
  const counter = path.join(fs.mkdtempSync('/tmp/tw-left-frozen-'), 'count');
  const launch = joinGroupCommand(group, '/bin/sh', ['-c', `i=0; while :; do i=$((i+1)); echo $i > ${counter}; sleep 0.02; done`]);
  const child = spawn(launch.file, launch.args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const parents = group.procsFiles.map((file) => path.dirname(path.dirname(file)));
  const freezeParents = (frozen: boolean) => {
    for (const dir of parents) {
      const file = fs.existsSync(path.join(dir, 'cgroup.freeze')) ? 'cgroup.freeze' : 'freezer.state';
      if (fs.existsSync(path.join(dir, file)))
        fs.writeFileSync(path.join(dir, file), file === 'cgroup.freeze' ? (frozen ? '1' : '0') : frozen ? 'FROZEN' : 'THAWED');
    }
  };
  const stop = async () => {
    freezeParents(false);
    child.kill('SIGKILL');
    await exited;
    group.remove();
    fs.rmSync(path.dirname(counter), { recursive: true, force: true });
  };
  return { group, count: counterReader(counter), freezeParents, stop };
}

function counterReader(file: string): () => number {
  let last = 0;
  return () => {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch {
      // not written yet
    }
    if (text !== '') last = Number(text);
    return last;
  };
}

const MOUNTINFO = [
  '30 25 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '31 30 0:27 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
  '32 30 0:28 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '33 30 0:29 /container/7 /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '34 30 0:30 / /sys/fs/cgroup/cpu\\040acct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
  '35 25 8:1 / /work rw,relatime - ext4 /dev/sda1 rw',
].join('\n');

describe('where control groups are found', () => {
  it('lists cgroup v1 and v2 mounts with their roots and controllers, unescaping paths', () => {
    expect(cgroupMounts(MOUNTINFO)).toEqual([
      { mountPoint: '/sys/fs/cgroup/unified', root: '/', version: 2, controllers: [] },
      { mountPoint: '/sys/fs/cgroup/pids', root: '/', version: 1, controllers: ['rw', 'pids'] },
      { mountPoint: '/sys/fs/cgroup/memory', root: '/container/7', version: 1, controllers: ['rw', 'memory'] },
      { mountPoint: '/sys/fs/cgroup/cpu acct', root: '/', version: 1, controllers: ['rw', 'cpu', 'cpuacct'] },
    ]);
  });

  it("reads this process's group per controller, and the v2 group under ''", () => {
    const groups = ownGroups('12:pids:/a\n4:memory:/process_api/x\n2:cpu,cpuacct:/\n0::/user.slice/s.scope\n');
    expect(groups.get('pids')).toBe('/a');
    expect(groups.get('memory')).toBe('/process_api/x');
    expect(groups.get('cpuacct')).toBe('/');
    expect(groups.get('')).toBe('/user.slice/s.scope');
  });

  it('ignores lines that are not groups', () => {
    expect(cgroupMounts('garbage\n\n1 2 3').length).toBe(0);
    expect(ownGroups('nonsense\n').size).toBe(0);
  });
});

const support = controlGroupSupport();

/** Runs `script` with /bin/sh after joining `group`; its stdout, stderr and status. */
function inGroup(group: CommandGroup, script: string) {
  const launch = joinGroupCommand(group, '/bin/sh', ['-c', script]);
  return spawnSync(launch.file, launch.args, { encoding: 'utf8', timeout: 20_000 });
}

describe('a pause that gives up on a slow command is tried again', () => {
  it('tries again while a command would not pause in time, with a growing wait between tries, and succeeds', async () => {
    const tries: number[] = [];
    const started = Date.now();
    const result = await pauseInTries(
      () => {
        tries.push(Date.now() - started);
        if (tries.length < 3) return Promise.reject(new PauseTimeout('a command running beside this one could not be paused in time'));
        return Promise.resolve('paused');
      },
      4,
      20,
    );
    expect(result).toBe('paused');
    expect(tries).toHaveLength(3);
    // The waits grow: 20 ms after the first try, 40 ms after the second.
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(19);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(39);
  });

  it('gives up after the last try, saying how often it tried', async () => {
    let count = 0;
    const failing = () => {
      count++;
      return Promise.reject(new PauseTimeout('a command running beside this one could not be paused in time'));
    };
    await expect(pauseInTries(failing, 3, 1)).rejects.toThrow(/could not be paused while its sandbox was made \(tried 3 times, 2 s each\)/);
    expect(count).toBe(3);
  });

  it('does not try again on any other failure', async () => {
    let count = 0;
    const broken = () => {
      count++;
      return Promise.reject(new Error('EACCES: the freezer cannot be written'));
    };
    await expect(pauseInTries(broken, 4, 1)).rejects.toThrow('EACCES');
    expect(count).toBe(1);
  });
});

describe.skipIf(!support.available)('a control group per command (this host can make them)', () => {
  it('puts the command and what it starts in its own group, with the limits written', () => {
    const group = makeCommandGroup({ processes: 30, memoryBytes: 64 * 1024 * 1024 })!;
    try {
      const result = inGroup(group, 'cat /proc/self/cgroup; (cat /proc/self/cgroup) | cat');
      expect(result.status).toBe(0);
      const lines = result.stdout.split('\n');
      for (const file of group.procsFiles) {
        const dir = path.dirname(file);
        expect(path.basename(dir)).toMatch(/^c\d+$/);
        expect(path.basename(path.dirname(dir))).toBe(`toolwright-${process.pid}`);
        // Both the shell and its grandchild name the group (v1: per controller, v2: `0::`).
        const suffix = `/toolwright-${process.pid}/${path.basename(dir)}`;
        expect(lines.filter((line) => line.endsWith(suffix)).length).toBeGreaterThanOrEqual(2);
      }
      const pids = group.procsFiles.map((file) => path.join(path.dirname(file), 'pids.max')).find((file) => fs.existsSync(file));
      if (pids) expect(fs.readFileSync(pids, 'utf8').trim()).toBe('30');
    } finally {
      group.remove();
    }
  });

  it.skipIf(!support.available || !support.controllers.includes('pids'))(
    'refuses forks past the process limit for the command as a whole, though it is root, and says so once',
    () => {
      const group = makeCommandGroup({ processes: 12, memoryBytes: 1024 ** 3 })!;
      try {
        // Each background sleep is a process: 40 at once cannot all start under a limit of 12.
        const result = inGroup(group, 'n=0; for i in $(seq 40); do sleep 1 & n=$((n+1)); done 2>/dev/null; wait; echo started');
        expect(result.stdout + result.stderr).not.toContain('could not join');
        const reached = group.reachedSinceLast();
        expect(reached).toHaveLength(1);
        expect(reached[0]).toMatch(/^processes: the command ran 12 processes and threads at once/);
        expect(group.reachedSinceLast()).toEqual([]);
      } finally {
        group.remove();
      }
    },
  );

  it.skipIf(!support.available || !support.controllers.includes('memory'))(
    'kills a process when the processes together pass the memory limit, though each stays under it',
    () => {
      const group = makeCommandGroup({ processes: 64, memoryBytes: 96 * 1024 * 1024 })!;
      try {
        // Four processes of 40 MiB each (touched page by page, so the memory is really used): 160 MiB together.
        const touch = 'python3 -c "import time; a=bytearray(40*1024*1024); a[::4096]=b\'x\'*len(a[::4096]); time.sleep(1)"';
        const result = inGroup(group, `for i in 1 2 3 4; do ${touch} & done; wait; echo waited`);
        expect(result.stdout).toContain('waited');
        expect(group.events().killedForMemory).toBeGreaterThan(0);
        expect(group.reachedSinceLast()[0]).toMatch(/^memory: the command's processes together used 96 MiB/);
      } finally {
        group.remove();
      }
    },
  );

  it('is kept for the next command once its processes are gone, which counts from nothing, with its own limits', async () => {
    const first = makeCommandGroup({ processes: 6, memoryBytes: 64 * 1024 * 1024 })!;
    inGroup(first, 'for i in $(seq 12); do sleep 0.2 & done 2>/dev/null; wait');
    expect(first.events().processesRefused).toBeGreaterThan(0);
    first.remove();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const parent = path.dirname(path.dirname(first.procsFiles[0]!));
    const before = fs.readdirSync(parent).length;
    const second = makeCommandGroup({ processes: 40, memoryBytes: 32 * 1024 * 1024 })!;
    try {
      // An emptied group was taken (this one's, or an earlier test's), not a new one made.
      expect(fs.readdirSync(parent).length).toBe(before);
      const pids = second.procsFiles.map((file) => path.join(path.dirname(file), 'pids.max')).find((file) => fs.existsSync(file));
      if (pids) expect(fs.readFileSync(pids, 'utf8').trim()).toBe('40');
      expect(second.events()).toEqual({ processesRefused: 0, killedForMemory: 0 });
      expect(inGroup(second, 'for i in $(seq 12); do sleep 0.2 & done; wait; echo all').stdout).toBe('all\n');
      expect(second.reachedSinceLast()).toEqual([]);
    } finally {
      second.remove();
    }
  });

  it('stops the command when its group cannot be joined', () => {
    const group = makeCommandGroup({ processes: 8, memoryBytes: 64 * 1024 * 1024 })!;
    for (const file of group.procsFiles) fs.rmdirSync(path.dirname(file));
    const joined = inGroup(group, 'echo ran');
    expect(joined.status).toBe(125);
    expect(joined.stdout).toBe('');
    expect(joined.stderr).toContain('could not join its control group');
    group.remove();
  });

  it('kills a command that forks as fast as it can and waits until none of its processes is left (killAndWait)', async () => {
    const group = makeCommandGroup({ processes: 64, memoryBytes: 64 * 1024 * 1024 })!;
    const launch = joinGroupCommand(group, '/bin/sh', ['-c', 'while :; do /bin/true & /bin/true; done']);
    const child = spawn(launch.file, launch.args, { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fs.readFileSync(group.procsFiles[0]!, 'utf8').trim()).not.toBe('');
      expect(group.killAndWait()).toBe(true);
      // Empty now, or paused with the kill pending while another host (a test file beside this one) makes a sandbox.
      await vi.waitFor(
        () => {
          for (const file of group.procsFiles) expect(fs.readFileSync(file, 'utf8').trim()).toBe('');
        },
        { timeout: 15_000, interval: 20 },
      );
    } finally {
      child.kill('SIGKILL');
      group.remove();
    }
  });

  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    'counts a command another host left paused as ended by killAndWait: it dies as it is thawed, running nothing more',
    async () => {
      const { group, count, freezeParents, stop } = countingInParentGroups();
      try {
        while (count() < 3) await new Promise((resolve) => setTimeout(resolve, 20));
        freezeParents(true);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const paused = count();
        // At once: while paused it is counted as ended (this process's own watch for groups left frozen may thaw it
        // meanwhile, and then it dies at once). Without that, this waited the whole half second and said no.
        expect(group.killAndWait(500)).toBe(true);
        freezeParents(false);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(count()).toBe(paused);
        for (const file of group.procsFiles) expect(fs.readFileSync(file, 'utf8').trim()).toBe('');
      } finally {
        await stop();
      }
    },
  );

  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    'pauses running commands for as long as the pause is held, however long a sandbox takes to be made, and only then resumes them',
    async () => {
      const group = makeCommandGroup({ processes: 16, memoryBytes: 64 * 1024 * 1024 })!;
      const counter = path.join(fs.mkdtempSync('/tmp/tw-pause-'), 'count');
      const launch = joinGroupCommand(group, '/bin/sh', ['-c', `i=0; while :; do i=$((i+1)); echo $i > ${counter}; sleep 0.02; done`]);
      const child = spawn(launch.file, launch.args, { stdio: 'ignore' });
      const count = counterReader(counter);
      const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Timers that run with real time and can be moved on: a pause that ended after some minutes of the
      // clock (a timed safety) would end here.
      vi.useFakeTimers({ shouldAdvanceTime: true });
      try {
        while (!fs.existsSync(counter) || count() < 3) await settle(20);
        const resume = await pauseRetrying();
        await settle(100);
        const paused = count();
        vi.advanceTimersByTime(10 * 60_000);
        await settle(400);
        expect(count()).toBe(paused);
        // One pause at a time: a second caller waits for the first to resume.
        let second: (() => void) | undefined;
        void pauseRetrying().then((next) => (second = next));
        await settle(200);
        expect(second).toBeUndefined();
        resume();
        while (!second) await settle(10);
        second();
        expect(await countPast(count, paused)).toBeGreaterThan(paused);
      } finally {
        vi.useRealTimers();
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
        group.remove();
        fs.rmSync(path.dirname(counter), { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    "pauses the commands of the user's other Toolwright processes too, and takes turns with them",
    async () => {
      // Another host (a second `serve` on the same workspace): a command of its own runs, and it pauses when told to.
      const dir = fs.mkdtempSync('/tmp/tw-other-host-');
      const counter = path.join(dir, 'count');
      const module = path.join(import.meta.dirname, '..', 'dist', 'control-groups.js');
      const script = `
        const groups = require(${JSON.stringify(module)});
        const { spawn } = require('node:child_process');
        const group = groups.makeCommandGroup({ processes: 16, memoryBytes: 64 * 1024 * 1024 });
        const launch = groups.joinGroupCommand(group, '/bin/sh', ['-c', 'i=0; while :; do i=$((i+1)); echo $i > ${counter}; sleep 0.02; done']);
        const child = spawn(launch.file, launch.args, { stdio: 'ignore' });
        process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });
        const pause = (left) => groups.pauseCommands().catch((error) => {
          if (left === 0 || !/could not be paused/.test(String(error))) throw error;
          return new Promise((resolve) => setTimeout(resolve, 200)).then(() => pause(left - 1));
        });
        process.stdin.on('data', () => pause(4).then((resume) => { console.log('paused'); setTimeout(resume, 50); }));
        console.log('running');`;
      const other = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines: string[] = [];
      other.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n')));
      const count = counterReader(counter);
      const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      try {
        while (!lines.includes('running') || count() < 3) await settle(20);
        const resume = await pauseRetrying();
        await settle(100);
        const paused = count();
        await settle(400);
        expect(count()).toBe(paused);
        // Its turn comes only after this one's.
        other.stdin!.write('pause\n');
        await settle(300);
        expect(lines).not.toContain('paused');
        resume();
        while (!lines.includes('paused')) await settle(10);
        expect(await countPast(count, paused)).toBeGreaterThan(paused);
      } finally {
        const ended = new Promise((resolve) => other.once('exit', resolve));
        other.kill('SIGTERM');
        await ended;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  // Takes the hosts' turn twice: beside other test files' sandboxes each take may wait up to 30 s (the product's bound).
  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    'thaws, in its turn, parent groups a host that died in its turn left frozen',
    { timeout: 150_000 },
    async () => {
      const { count, freezeParents: freeze, stop } = countingInParentGroups();
      const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      try {
        while (count() < 3) await settle(20);
        // In the hosts' turn, as the host that died held it: another host's pause (a test file running beside this
        // one) would otherwise freeze and thaw every host's groups meanwhile, these too.
        const giveBack = await takeTurn();
        let stopped: number;
        try {
          freeze(true);
          await settle(200);
          stopped = count();
          await settle(300);
          expect(count()).toBe(stopped);
        } finally {
          giveBack();
        }
        // What is tested here is the thaw in this host's turn (a pause that could not freeze a command beside it is tried again).
        (await pauseRetrying())();
        expect(await countPast(count, stopped)).toBeGreaterThan(stopped);
      } finally {
        await stop();
      }
    },
  );

  // Found in a test run: a host killed in its turn left another's parent group frozen, and that host's command stayed
  // frozen for minutes, since no host made a sandbox meanwhile.
  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    'thaws by itself, within seconds, its parent groups a host that died in its turn left frozen',
    async () => {
      const { count, freezeParents: freeze, stop } = countingInParentGroups();
      const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      try {
        while (count() < 3) await settle(20);
        // Frozen with the turn free, as a holder that died leaves them; nothing here pauses or makes a sandbox.
        freeze(true);
        await settle(200);
        const stopped = count();
        expect(await countPast(count, stopped)).toBeGreaterThan(stopped);
      } finally {
        await stop();
      }
    },
  );

  it('removes the groups of hosts that have died when it looks again', () => {
    const first = makeCommandGroup({ processes: 8, memoryBytes: 64 * 1024 * 1024 })!;
    const bases = first.procsFiles.map((file) => path.dirname(path.dirname(path.dirname(file))));
    first.remove();
    expect(bases.every((base) => fs.existsSync(path.join(base, `toolwright-${process.pid}`)))).toBe(true);
    // A process id no process has (beyond the kernel's largest).
    const stale = bases.map((base) => path.join(base, 'toolwright-2147483647'));
    for (const dir of stale) fs.mkdirSync(path.join(dir, 'c1'), { recursive: true });
    forgetControlGroupSupport();
    expect(controlGroupSupport().available).toBe(true);
    for (const dir of stale) expect(fs.existsSync(dir)).toBe(false);
  });

  // A host that froze another's parent group and died in its turn leaves it frozen; if that other host died too, its
  // commands stayed frozen for good, killed or not (a test machine held one for over an hour).
  it.skipIf(!support.available || !support.controllers.includes('freezer'))(
    "thaws and removes a dead host's frozen parent group with its commands",
    async () => {
      const first = makeCommandGroup({ processes: 8, memoryBytes: 64 * 1024 * 1024 })!;
      const freezerBase = first.procsFiles
        .map((file) => path.dirname(path.dirname(path.dirname(file))))
        .find((base) => fs.existsSync(path.join(base, `toolwright-${process.pid}`, 'freezer.state')) || fs.existsSync(path.join(base, 'cgroup.freeze')));
      first.remove();
      expect(freezerBase).toBeDefined();
      const stale = path.join(freezerBase!, 'toolwright-2147483646');
      fs.mkdirSync(path.join(stale, 'c1'), { recursive: true });
      const v2 = fs.existsSync(path.join(stale, 'cgroup.freeze'));
      const joinFile = path.join(stale, 'c1', v2 ? 'cgroup.procs' : 'tasks');
      const child = spawn('/bin/sh', ['-c', `echo 0 > ${joinFile} && exec sleep 600`], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        while (fs.readFileSync(path.join(stale, 'c1', 'cgroup.procs'), 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 10));
        fs.writeFileSync(path.join(stale, v2 ? 'cgroup.freeze' : 'freezer.state'), v2 ? '1' : 'FROZEN');
        forgetControlGroupSupport();
        expect(controlGroupSupport().available).toBe(true);
        // Killed and thawed: it dies at once (a sleep of 10 minutes otherwise), and a later look removes the group.
        await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error('the frozen command never died')), 10_000))]);
        forgetControlGroupSupport();
        controlGroupSupport();
        expect(fs.existsSync(stale)).toBe(false);
      } finally {
        if (fs.existsSync(stale)) fs.writeFileSync(path.join(stale, v2 ? 'cgroup.freeze' : 'freezer.state'), v2 ? '0' : 'THAWED');
        child.kill('SIGKILL');
      }
    },
  );
});
