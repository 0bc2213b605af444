// Nothing a command starts outlives its host: whatever ends the host (SIGTERM, SIGINT, SIGKILL, a
// normal exit after a timeout), every process group the shell tools started is killed, and groups
// recorded by a host that died together with its watchdog are killed at the next start.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './support/run.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-lifetime-')));
const hosts: ChildProcess[] = [];
afterAll(() => {
  for (const host of hosts) host.kill('SIGKILL');
  fs.rmSync(base, { recursive: true, force: true });
});

const CLI = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const HOST = path.join(REPO, 'e2e', 'support', 'shell-host.cjs');
let next = 0;
/** A sleep duration no other process uses, so its processes can be found by their command line. */
const marker = () => 771_000 + (process.pid % 1000) * 100 + next++;

function processes(match: (cmdline: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^\d+ \(.*\) [ZX] /s.test(stat)) continue; // a zombie has already ended
      if (match(fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '))) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}
const sleeping = (seconds: number) => processes((cmd) => cmd.trim() === `sleep ${seconds}`);

async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

function workspace(): string {
  return fs.mkdtempSync(path.join(base, 'ws-'));
}

function start(command: string, args: string[]): ChildProcess {
  const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  hosts.push(child);
  return child;
}

describe('shell commands die with their host', () => {
  it.for(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('toolwright call killed with %s takes its command with it', async (signal) => {
    const seconds = marker();
    const cli = start(CLI, [
      'call',
      'shell_exec',
      '--args',
      JSON.stringify({ command: `echo started; sleep ${seconds}` }),
      '--yes',
      '--audit',
      'none',
      '--workspace',
      workspace(),
    ]);
    expect(await until(() => sleeping(seconds).length > 0)).toBe(true);
    const watchdogs = processes((cmd) => cmd.includes('toolwright process watchdog')).filter((pid) => parentOf(pid) === cli.pid);
    const leaders = sleeping(seconds).map((pid) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ').slice(0, 4).join(' '));
    expect(watchdogs.length, `no watchdog for the CLI; sleep stat: ${leaders.join(';')}`).toBe(1);
    cli.kill(signal);
    expect(await until(() => sleeping(seconds).length === 0), `sleep ${seconds} outlived the CLI`).toBe(true);
  });

  it.for([
    ['host', (s: number) => `sleep ${s} | cat`, 'false'],
    ['session', (s: number) => `echo x; sleep ${s}`, 'false'],
    ['host', (s: number) => `sleep ${s}`, 'true'],
    // GNU timeout moves itself into a process group of its own; it stays in the leader's session.
    ['host', (s: number) => `echo started; timeout 900 sleep ${s}`, 'false'],
    ['session', (s: number) => `timeout 900 sleep ${s}`, 'false'],
  ] as const)('a %s-backend command (%#) dies when its host is SIGKILLed', async ([backend, command, background]) => {
    const seconds = marker();
    const host = start(HOST, [workspace(), backend, command(seconds), background]);
    expect(await until(() => sleeping(seconds).length > 0)).toBe(true);
    host.kill('SIGKILL');
    expect(await until(() => sleeping(seconds).length === 0), `sleep ${seconds} outlived its host`).toBe(true);
  });

  it('a timed-out command under GNU timeout leaves nothing behind once the call has returned', async () => {
    const seconds = marker();
    const cli = start(CLI, [
      'call',
      'shell_exec',
      '--args',
      JSON.stringify({ command: `timeout 900 sleep ${seconds}`, timeoutSeconds: 1 }),
      '--yes',
      '--audit',
      'none',
      '--workspace',
      workspace(),
    ]);
    await new Promise((resolve) => cli.on('exit', resolve));
    expect(await until(() => sleeping(seconds).length === 0)).toBe(true);
  });

  it('a timed-out pipeline leaves nothing behind once the call has returned', async () => {
    const seconds = marker();
    const cli = start(CLI, [
      'call',
      'shell_exec',
      '--args',
      JSON.stringify({ command: `sleep ${seconds} | cat`, timeoutSeconds: 1 }),
      '--yes',
      '--audit',
      'none',
      '--workspace',
      workspace(),
    ]);
    const exited = new Promise((resolve) => cli.on('exit', resolve));
    await exited;
    expect(await until(() => sleeping(seconds).length === 0)).toBe(true);
  });

  // Without the sandbox: only the record file is left to find the group (inside it, the PID
  // namespace dies with the host by itself: see the next test).
  it('groups left by a host that died with its watchdog are killed at the next start (no sandbox)', async () => {
    const seconds = marker();
    const host = start(HOST, [workspace(), 'host', `sleep ${seconds}`, 'false', 'off']);
    expect(await until(() => sleeping(seconds).length > 0)).toBe(true);
    // Kill the host's watchdog first (as `kill -9 -1` would), then the host itself.
    const watchdogs = processes((cmd) => cmd.includes('toolwright process watchdog')).filter((pid) => parentOf(pid) === host.pid);
    expect(watchdogs.length).toBe(1);
    process.kill(watchdogs[0]!, 'SIGKILL');
    await until(() => processes((cmd) => cmd.includes('toolwright process watchdog')).every((pid) => pid !== watchdogs[0]));
    host.kill('SIGKILL');
    await new Promise((resolve) => host.on('exit', resolve));
    expect(sleeping(seconds).length).toBeGreaterThan(0);
    // The next host to use the shell finds the record and kills the orphaned group.
    const nextHost = start(HOST, [workspace(), 'host', 'echo hello', 'false', 'off']);
    await new Promise((resolve) => nextHost.on('exit', resolve));
    expect(await until(() => sleeping(seconds).length === 0)).toBe(true);
  });

  it.skipIf(spawnSync('bwrap', ['--version']).status !== 0)('a sandboxed command dies with a host whose watchdog was killed first', async () => {
    const seconds = marker();
    const host = start(HOST, [workspace(), 'host', `sleep ${seconds}`, 'false', 'required']);
    expect(await until(() => sleeping(seconds).length > 0)).toBe(true);
    const watchdogs = processes((cmd) => cmd.includes('toolwright process watchdog')).filter((pid) => parentOf(pid) === host.pid);
    for (const pid of watchdogs) process.kill(pid, 'SIGKILL');
    host.kill('SIGKILL');
    await new Promise((resolve) => host.on('exit', resolve));
    expect(await until(() => sleeping(seconds).length === 0)).toBe(true);
  });
});

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
