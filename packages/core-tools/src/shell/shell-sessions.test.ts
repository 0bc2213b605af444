// A session's shell is started by a launcher (which, inside the sandbox, plans the mounts and pauses every
// other command until the sandbox stands); a shell that stands is used as it is. These tests count the
// launchers a session asks for: one per shell started, none for a line run in a standing shell.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { unsandboxedCommand } from '@toolwright/sandbox';
import { ShellSessions, type SessionRunOptions } from './shell-sessions.js';
import type { CommandLauncher, LaunchSetting } from './shell-sandbox.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sessions-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let sessions: ShellSessions | undefined;
afterEach(() => sessions?.dispose());

/** Sessions on `root` whose launchers are counted, each starting the shell as it is (named `sandbox`: started once). */
function counted(setting: () => LaunchSetting = () => ({ ranIn: 'sandbox', network: false })) {
  sessions = new ShellSessions(root, 4);
  const launched: { network: boolean | undefined; released: number }[] = [];
  const options = (line: string): SessionRunOptions => ({
    env: () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root }),
    setting: async () => setting(),
    launcher: async (): Promise<CommandLauncher> => {
      const record = { network: setting().network, released: 0 };
      launched.push(record);
      return { launch: unsandboxedCommand, ranIn: setting().ranIn, network: record.network, release: () => record.released++ };
    },
    judge: async () => ({ script: line, assignments: [] }),
    killGraceMs: 200,
    timeoutMs: 5_000,
    maxOutputBytes: 10_000,
  });
  return { launched, run: (line: string, id = 's') => sessions!.run(id, options(line)) };
}

describe('ShellSessions', () => {
  it('asks for a launcher only to start a shell: lines in a standing shell plan nothing and pause no one', async () => {
    const { launched, run } = counted();
    for (let i = 0; i < 5; i++) expect((await run(`echo line${i}`)).stdout).toBe(`line${i}\n`);
    expect(launched).toHaveLength(1);
    expect(launched[0]!.released).toBe(0);
    await run('echo other', 'second');
    expect(launched).toHaveLength(2);
  });

  it('starts a shell from a new launcher once the standing one has ended, and lets go of the old one', async () => {
    const { launched, run } = counted();
    await run('cd /tmp; X=1');
    await run('exit 3');
    const after = await run('echo "${X:-unset}"; pwd');
    expect(launched).toHaveLength(2);
    expect(launched[0]!.released).toBe(1);
    expect(after.stdout).toBe(`unset\n${root}\n`);
    expect(after.sessionRestarted).toBe(true);
  });

  it("starts a shell of the call's own setting where the network differs, and uses it as it is while it does not", async () => {
    let network = false;
    const { launched, run } = counted(() => ({ ranIn: 'sandbox', network }));
    await run('true');
    network = true;
    expect((await run('true')).sessionRestarted).toBe(true);
    expect((await run('true')).sessionRestarted).toBe(false);
    expect(launched.map((entry) => entry.network)).toEqual([false, true]);
    expect(launched[0]!.released).toBe(1);
  });

  it('refuses a line before starting anything where no command may run', async () => {
    sessions = new ShellSessions(root, 4);
    let launchers = 0;
    const refused = sessions.run('s', {
      env: () => ({}),
      setting: async () => {
        throw new Error('Shell commands cannot run: no sandbox.');
      },
      launcher: async () => {
        launchers++;
        throw new Error('not asked');
      },
      judge: async () => ({ script: 'true', assignments: [] }),
      killGraceMs: 200,
      timeoutMs: 5_000,
      maxOutputBytes: 10_000,
    });
    await expect(refused).rejects.toThrow('no sandbox');
    expect(launchers).toBe(0);
  });
});
