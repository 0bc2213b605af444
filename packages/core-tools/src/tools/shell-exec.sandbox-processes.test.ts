// Classes of escape found by a seventh independent pass (judge off), where more than one process is
// involved: a process a command left behind, and other Toolwright processes on the same workspace.
// The sandbox alone must hold.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { FileDeleteTool } from './file-delete.js';
import { FileEditTool } from './file-edit.js';
import { FileWriteTool } from './file-write.js';
import { ShellTool, type ShellResult } from './shell-exec.js';
import { WorkspacePolicy, type WorkspaceConfig } from '../workspace/workspace-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-processes-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true, maxRetries: 10 }));
let made = 0;

function setUp(config: Partial<WorkspaceConfig> = {}, shell: Partial<ShellConfig> = {}) {
  const root = path.join(base, `ws${++made}`);
  fs.mkdirSync(root);
  const tool = new ShellTool({
    workspace: new WorkspacePolicy({ root, ...config }),
    shell: { backend: 'host', unjudged: true, timeoutMs: 20_000, killGraceMs: 200, ...shell } as ShellConfig,
  });
  const run = async (command: string, background = false): Promise<string> => {
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      const result = (await runWithToolContext(context, () => tool.shellExec(command, 20, background))) as ShellResult;
      return `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return { root, tool, run };
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

describe.skipIf(!support.available)('what a sandbox holds is held until its last process is gone', () => {
  // A process in a session of its own (`setsid`) is not in the command's process group: it outlives the group's
  // kill until the sandbox's first process has died. While it lives it must not see a placeholder it had mounted
  // go — with `.git` gone it could make one, whose `core.fsmonitor` the host's git would run.
  it.for(['host', 'session'] as const)('keeps the placeholders of an ended %s backend command until none of its processes is left', async (backend) => {
    const { root, tool, run } = setUp({}, { backend });
    const command = 'setsid sleep 30 >/dev/null 2>&1 < /dev/null & echo started';
    const started = backend === 'host' ? await run(`${command}; sleep 30`, true) : await run(command);
    expect(started).not.toMatch(/not run|refused|error/i);
    await until(() => fs.existsSync(path.join(root, '.git')), 5000);
    expect(fs.existsSync(path.join(root, '.git'))).toBe(true); // the placeholder, mounted read-only inside
    tool.dispose();
    // Ended, but its processes may still be dying: what it holds is still held.
    expect(fs.existsSync(path.join(root, '.git'))).toBe(true);
    // Once they are gone, the placeholder goes too.
    expect(await until(() => !fs.existsSync(path.join(root, '.git')), 15_000)).toBe(true);
  });
});

describe.skipIf(!support.available)('what a command started when it has ended', () => {
  /** Processes on the host whose command line is `sleep <seconds>`. */
  const sleeping = (seconds: number) =>
    fs.readdirSync('/proc').filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        return fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${seconds}\0`;
      } catch {
        return false;
      }
    });

  // The host does not look for them (the sandbox's PID namespace ends with its first process, `Launch.contained`):
  // by the time the command's result is back, the kernel has killed every one, whichever group or session it made.
  it('is gone by the time the result is back, in the same group, a new group or a session of its own', async () => {
    const { tool, run } = setUp();
    try {
      // The kernel ends them while the sandbox's first process exits, after bubblewrap has told the end: a race, so
      // the same command is run again and again (it was lost in 11 of 40 runs before the host waited for that exit).
      for (let attempt = 0; attempt < 12; attempt++) {
        const text = await run(
          'sleep 4301 >/dev/null 2>&1 & setsid sleep 4302 >/dev/null 2>&1 < /dev/null & (set -m; sleep 4303 >/dev/null 2>&1 &) ; nohup sleep 4304 >/dev/null 2>&1 & sleep 0.05; echo started',
        );
        expect(text).toContain('started');
        expect([4301, 4302, 4303, 4304].flatMap(sleeping), `attempt ${attempt}`).toEqual([]);
      }
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('a covered file the host replaces while a sandbox runs', () => {
  // A mount holds the file it was made on: an editor's save by rename, `sed -i` or `git checkout` puts a new file in
  // its place, which a sandbox made before would see as plain workspace content (a denied file readable, a
  // protected one writable). Such a sandbox is ended.
  const WATCHER = `for i in $(seq 100); do
    c=$(cat secrets/prod.key 2>/dev/null); [ -n "$c" ] && echo "read denied file: $c"
    echo "TOKEN=from-the-sandbox" 2>/dev/null > .env && echo ".env written"
    sleep 0.1; done; echo watcher-end`;

  function replaceOnHost(root: string): void {
    for (const [file, text] of [
      ['secrets/prod.key', 'DENIED-v2\n'],
      ['.env', 'TOKEN=edited-by-the-user\n'],
    ] as const) {
      fs.writeFileSync(path.join(root, `${file}.tmp`), text);
      fs.renameSync(path.join(root, `${file}.tmp`), path.join(root, file));
    }
  }

  // Toolwright's own writes and deletes (a change a person approved under a protected path) end the sandboxes that
  // cover the path before the change: a command polling as fast as it can never sees the new file. Before, the
  // kernel's watch ended them only after the rename, and a loaded CI machine's poller wrote into the new `.env`.
  it("ends the sandboxes covering a path before the host's own tools replace or delete it", async () => {
    const { root, tool } = setUp();
    const workspace = new WorkspacePolicy({ root });
    fs.mkdirSync(path.join(root, '.toolwright'));
    fs.writeFileSync(path.join(root, '.toolwright', 'state.json'), '{}\n');
    const poller = `while :; do
      echo "TOKEN=from-the-sandbox" 2>/dev/null > .env && echo ".env written"
      mkdir -p .toolwright 2>/dev/null; echo planted 2>/dev/null > .toolwright/planted && echo "planted"
    done`;
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      for (let round = 0; round < 3; round++) {
        fs.writeFileSync(path.join(root, '.env'), 'TOKEN=original\n');
        const started = (await runWithToolContext(context, () => tool.shellExec(poller, 30, true))) as { jobId: string };
        await new Promise((resolve) => setTimeout(resolve, 300));
        const change =
          round === 0
            ? new FileWriteTool({ workspace }).fileWrite('.env', 'TOKEN=edited-by-the-user\n')
            : round === 1
              ? new FileEditTool({ workspace }).fileEdit('.env', 'TOKEN=original', 'TOKEN=edited-by-the-user')
              : new FileDeleteTool({ workspace }).fileDelete('.toolwright', true);
        await change;
        const status = await runWithToolContext(context, () => tool.shellJobOutput(started.jobId, 20));
        const text = `${status.result?.stdout ?? ''}${status.result?.stderr ?? ''}`;
        expect(text, `round ${round}`).not.toMatch(/\.env written|planted/);
        expect(JSON.stringify(status)).toMatch(round === 2 ? /stopped: '\.toolwright'.*replaced on the host/ : /stopped: '\.env'.*replaced on the host/);
        if (round < 2) expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('TOKEN=edited-by-the-user\n');
        else expect(fs.existsSync(path.join(root, '.toolwright'))).toBe(false);
      }
    } finally {
      tool.dispose();
    }
  });

  // Another program's change (an editor saving by rename) is seen by the kernel's watch after the fact: the sandbox is
  // ended then, and a command polling for the new file in that moment (milliseconds; more on a loaded machine) may
  // use it once — docs/security.md's known limit. What it covered before stays covered throughout.
  it('ends a background job whose covered file another program replaced, saying why', async () => {
    const { root, tool } = setUp({ deniedPaths: ['secrets/*.key'] });
    fs.mkdirSync(path.join(root, 'secrets'));
    fs.writeFileSync(path.join(root, 'secrets', 'prod.key'), 'DENIED-v1\n');
    fs.writeFileSync(path.join(root, '.env'), 'TOKEN=original\n');
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      const started = (await runWithToolContext(context, () => tool.shellExec(WATCHER, 30, true))) as { jobId: string };
      await new Promise((resolve) => setTimeout(resolve, 800));
      replaceOnHost(root);
      const status = await runWithToolContext(context, () => tool.shellJobOutput(started.jobId, 20));
      const text = `${status.result?.stdout ?? ''}${status.result?.stderr ?? ''}`;
      expect(text).not.toContain('DENIED-v1');
      expect(text).not.toContain('watcher-end');
      expect(JSON.stringify(status)).toMatch(/stopped: '(secrets\/prod\.key|\.env)'.*replaced on the host/);
    } finally {
      tool.dispose();
    }
  });

  // Found by a fourteenth pass: the folder on the way replaced (`mv secrets secrets.old; mkdir secrets`), and the new
  // folder's key read ten times over a quarter of a second, until the twice-a-second look caught it.
  it('ends a background job whose covered file the host replaced by replacing a folder on its way', async () => {
    const { root, tool } = setUp({ deniedPaths: ['deep/secrets/*.key'] });
    fs.mkdirSync(path.join(root, 'deep', 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(root, 'deep', 'secrets', 'prod.key'), 'DENIED-v1\n');
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    const watcher = 'for i in $(seq 400); do c=$(cat deep/secrets/prod.key 2>/dev/null); [ -n "$c" ] && echo "read: $c"; sleep 0.02; done; echo watcher-end';
    try {
      for (const replaced of ['deep/secrets', 'deep']) {
        const started = (await runWithToolContext(context, () => tool.shellExec(watcher, 30, true))) as { jobId: string };
        await new Promise((resolve) => setTimeout(resolve, 800));
        const folder = path.join(root, replaced);
        fs.renameSync(folder, `${folder}.old`);
        fs.mkdirSync(path.join(root, 'deep', 'secrets'), { recursive: true });
        fs.writeFileSync(path.join(root, 'deep', 'secrets', 'prod.key'), `DENIED-new-${replaced}\n`);
        const status = await runWithToolContext(context, () => tool.shellJobOutput(started.jobId, 20));
        const text = `${status.result?.stdout ?? ''}${status.result?.stderr ?? ''}`;
        expect(text).not.toContain('DENIED-v1');
        expect(text).not.toContain('watcher-end');
        expect(JSON.stringify(status)).toMatch(/stopped: 'deep(\/secrets)?'.*replaced on the host/);
      }
    } finally {
      tool.dispose();
    }
  });

  it('ends a session shell whose sandbox covered it: its next line runs in a sandbox that covers the new file', async () => {
    const { root, tool, run } = setUp({ deniedPaths: ['secrets/*.key'] }, { backend: 'session' });
    fs.mkdirSync(path.join(root, 'secrets'));
    fs.writeFileSync(path.join(root, 'secrets', 'prod.key'), 'DENIED-v1\n');
    fs.writeFileSync(path.join(root, '.env'), 'TOKEN=original\n');
    try {
      expect(await run('echo standing')).toContain('standing');
      replaceOnHost(root);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const text = await run('cat secrets/prod.key; echo "TOKEN=from-the-sandbox" > .env; echo next-line');
      expect(text).toContain('next-line');
      expect(text).not.toContain('DENIED');
      expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('TOKEN=edited-by-the-user\n');
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('what a crash inside would make the host run', () => {
  // A `core_pattern` that pipes to a program (apport, systemd-coredump) is run on the host, as root, with the crashed
  // command's memory on its input, whatever the core file limit — unless that limit is exactly 1 byte.
  it.for(['host', 'session'] as const)('gives %s backend commands a core size limit of 1 byte, soft and hard', async (backend) => {
    const { tool, run } = setUp({}, { backend });
    try {
      const text = await run('grep "Max core file size" /proc/self/limits; ulimit -c 4096 2>&1 || echo cannot-raise');
      expect(text).toMatch(/Max core file size\s+1\s+1\s+bytes/);
      expect(text).toContain('cannot-raise');
    } finally {
      tool.dispose();
    }
  });
});

/** One call of `shell_exec` on `tool` in session `s`, its result as the tool returns it. */
function callIn(tool: ShellTool, command: string): Promise<ShellResult> {
  const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
  return runWithToolContext(context, () => tool.shellExec(command, 20)) as Promise<ShellResult>;
}

describe.skipIf(!support.available)("a session's control pipe", () => {
  // Found by a thirteenth pass: a background process wrote to the session's control pipe through bash's saved copy of
  // it (`>&11`), and the host buffered everything it wrote — a gigabyte at full CPU — while every later call came back
  // without its status. Only the shell's own status line counts; anything else ends the session.
  it('ends the session when something besides the shell writes there, and the next call runs in a fresh one', async () => {
    const { tool } = setUp({}, { backend: 'session' });
    const call = (command: string) => callIn(tool, command);
    try {
      const flood = 'for n in 10 11 12 13; do ( yes floodfloodflood | tr -d "\\n" >&$n ) 2>/dev/null & done; echo started';
      expect((await call(flood)).stdout).toContain('started');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const next = await call('echo next');
      expect(next.stdout).toContain('next');
      expect(next.exitCode).toBe(0);
      const flooding = fs.readdirSync('/proc').filter((entry) => {
        try {
          return /^\d+$/.test(entry) && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === 'yes\0floodfloodflood\0';
        } catch {
          return false;
        }
      });
      expect(flooding).toEqual([]);
    } finally {
      tool.dispose();
    }
  });

  it('takes a status line forged by a background process for what it is', async () => {
    const { tool } = setUp({}, { backend: 'session' });
    const call = (command: string) => callIn(tool, command);
    try {
      // A line for whichever command runs next, with a made-up status and folder, written while it runs.
      const forge = `for n in 10 11 12 13; do ( sleep 0.3; printf '0\\t/\\n' >&$n ) 2>/dev/null & done; echo started`;
      expect((await call(forge)).stdout).toContain('started');
      const next = await call('sleep 1; exit 3');
      expect(next.exitCode).not.toBe(0); // never the forged 0: the session ended (no status), or the real 3
      const after = await call('pwd; exit 4');
      expect(after.exitCode).toBe(4);
    } finally {
      tool.dispose();
    }
  });
});
