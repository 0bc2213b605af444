import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getToolDeclaration, runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { ShellTool, renderShellJob, renderShellResult, type ShellJobStarted, type ShellResult } from './shell-exec.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';
import type { ShellConfig } from '../shell/shell-config.js';
import { testSandboxMode } from '../test-support/sandbox-mode.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

const ws = tempWorkspace({ 'notes.txt': 'alpha\nbeta\ngamma\n' });
afterAll(() => ws.cleanup());

function shell(
  config: ShellConfig = {
    backend: 'host',
    policy: { allow: ['ls', 'cat', 'echo', 'sleep', 'yes', 'head', 'seq', 'wc', 'true', 'false', 'printenv', 'sh-tree', './spawn.sh', 'ps'], permit: ['glob'] },
  },
) {
  return new ShellTool({ ...ws.env, shell: config.backend === 'disabled' ? config : { sandbox: testSandboxMode(), ...config } });
}
const run = async (tool: ShellTool, command: string, timeoutSeconds?: number) => (await tool.shellExec(command, timeoutSeconds)) as ShellResult;

describe('shell_exec (host backend)', () => {
  it('gives the model examples the default configuration runs (not one the allowlist refuses)', async () => {
    const parameter = getToolDeclaration(ShellTool.prototype.shellExec)?.parameters.properties?.command as { description?: string } | undefined;
    const examples = [...(parameter?.description ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    expect(examples.length).toBeGreaterThan(0);
    const tool = new ShellTool({ ...ws.env, shell: { backend: 'host', sandbox: testSandboxMode() } });
    for (const example of examples) await expect(tool.shellExec(example), example).resolves.toMatchObject({ timedOut: false });
  });

  it('runs an allowed command in the workspace and reports exit code and output', async () => {
    const result = await run(shell(), 'cat notes.txt | wc -l');
    expect(result).toMatchObject({ exitCode: 0, signal: null, stdout: '3\n', stderr: '', truncated: false, timedOut: false });
  });

  it('reports a failing exit code and stderr', async () => {
    const result = await run(shell(), 'ls missing-file');
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('missing-file');
  });

  it('refuses a command the analyzer rejects, before anything runs', async () => {
    await expect(shell().shellExec('echo $(touch pwned)')).rejects.toThrow(/refused: command substitution/);
    expect(fs.existsSync(path.join(ws.root, 'pwned'))).toBe(false);
  });

  it('reads no start-up files: a planted .bashrc and BASH_ENV change nothing', async () => {
    ws.write('.bashrc', 'alias ls="echo HIJACKED"\necho HIJACKED\n');
    const previous = process.env.BASH_ENV;
    process.env.BASH_ENV = path.join(ws.root, '.bashrc');
    try {
      const result = await run(shell(), 'ls notes.txt');
      expect(result.stdout).toBe('notes.txt\n');
    } finally {
      if (previous === undefined) delete process.env.BASH_ENV;
      else process.env.BASH_ENV = previous;
    }
  });

  it('passes only an allowlisted environment, with a private HOME', async () => {
    process.env.TOOLWRIGHT_TEST_SECRET = 'sk-live-123';
    try {
      const result = await run(shell(), 'printenv');
      expect(result.stdout).not.toContain('sk-live-123');
      expect(result.stdout).toMatch(/^HOME=.*toolwright-shell-home-/m);
      expect(result.stdout).toContain('GIT_CONFIG_NOSYSTEM=1');
    } finally {
      delete process.env.TOOLWRIGHT_TEST_SECRET;
    }
  });

  it('closes stdin, so a command waiting for input ends at once', async () => {
    const result = await run(shell(), 'cat');
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('kills the whole process tree at the timeout, grandchildren included', async () => {
    // The grandchild ignores TERM and keeps writing a tick; in the sandbox its pid is the PID
    // namespace's own, so it is watched through the file it writes, not by number.
    ws.write('spawn.sh', "#!/bin/bash\n(trap '' TERM; while :; do date +%s%N > tick; sleep 0.05; done) &\nsleep 30\n");
    fs.chmodSync(path.join(ws.root, 'spawn.sh'), 0o755);
    const tool = shell({ backend: 'host', killGraceMs: 200, policy: { allow: ['./spawn.sh'] } });
    const result = await run(tool, './spawn.sh', 1);
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGTERM');
    // KILL follows TERM after the 200 ms grace period; allow a loaded machine time to deliver it.
    const ticking = async () => {
      const before = fs.statSync(path.join(ws.root, 'tick')).mtimeMs;
      await new Promise((resolve) => setTimeout(resolve, 400));
      return fs.statSync(path.join(ws.root, 'tick')).mtimeMs !== before;
    };
    await expect.poll(ticking, { timeout: 8000, interval: 50 }).toBe(false);
  });

  it('holds the output cap while streaming and keeps head and tail', async () => {
    const tool = shell({ backend: 'host', maxOutputBytes: 1024, policy: { allow: ['seq'] } });
    const result = await run(tool, 'seq 1 200000');
    expect(result.truncated).toBe(true);
    expect(result.stdoutBytes).toBe(1288895);
    expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.stdout.endsWith('199999\n200000\n')).toBe(true);
    expect(result.stdout).toMatch(/\[\.\.\. \d+ bytes of output omitted \.\.\.\]/);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(1200);
  });

  it('fits stdout and stderr into the output budget, keeping first and last lines and saying how much was left out', async () => {
    const result = await withBudget(2_000, () => run(shell(), 'seq 1 100000'));
    const text = renderShellResult(result);
    expect(modelSize(text)).toBeLessThanOrEqual(2_000);
    expect(result).toMatchObject({ exitCode: 0, truncated: true, stdoutBytes: 588895 });
    expect(result.stdout).toMatch(
      /^1\n2\n3\n[\s\S]*\n\[\.\.\. \d+ bytes omitted; rerun piped through head, tail or grep to see them \.\.\.\]\n[\s\S]*\n99999\n100000\n$/,
    );
    const omitted = Number(/\[\.\.\. (\d+) bytes omitted/.exec(result.stdout)![1]);
    const [head, tail] = result.stdout.split(/\[\.\.\. \d+ bytes omitted[^\]]*\]\n/);
    expect(Buffer.byteLength(head!) + omitted + Buffer.byteLength(tail!)).toBe(588895);
  });

  it('leaves output that fits the budget as it is, and renders the exit code and output blocks', async () => {
    const ok = await withBudget(2_000, () => run(shell(), 'cat notes.txt'));
    expect(renderShellResult({ ...ok, durationMs: 12 })).toBe('exit code 0 (12 ms)\n[stdout]\nalpha\nbeta\ngamma');
    const failed = await run(shell(), 'ls missing-file');
    expect(renderShellResult({ ...failed, durationMs: 1500 })).toMatch(
      /^exit code 2 \(1\.5 s\)\n\[stderr\]\nls: cannot access 'missing-file': No such file or directory$/,
    );
    expect(renderShellResult({ ...ok, stdout: '', durationMs: 3 })).toBe('exit code 0 (3 ms)\n[no output]');
    expect(renderShellResult({ ...ok, exitCode: null, signal: 'SIGKILL', timedOut: true, stdout: '', durationMs: 5000 })).toBe(
      'timed out and was killed (SIGKILL) (5.0 s)\n[no output]',
    );
    expect(renderShellResult({ ...ok, exitCode: 254, stdout: '', stderr: 'fork: retry\n', durationMs: 9, limitsReached: ['processes: x'] })).toBe(
      'exit code 254 (9 ms)\n[stderr]\nfork: retry\n[limit reached: processes: x]',
    );
    expect(renderShellJob({ jobId: 'job-1', command: 'sleep 5' })).toBe(
      'Started background job job-1: sleep 5\nRead its output with shell_job_output (jobId "job-1"); stop it with shell_job_kill.',
    );
    expect(renderShellJob({ jobId: 'job-1', running: true, stdout: 'partial\n', stderr: '' })).toBe(
      'job job-1 is still running; its output so far:\n[stdout]\npartial',
    );
  });

  it('stops when the call is cancelled through its AbortSignal', async () => {
    const controller = new AbortController();
    const elapsed = stopwatch();
    const pending = runWithToolContext(toolContext({ toolName: 'shell_exec', signal: controller.signal }), () => shell().shellExec('sleep 20'));
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/cancelled/);
    expect(elapsed()).toBeLessThan(5000);
  });

  it('runs background jobs, reads their output and kills them', async () => {
    const tool = shell();
    const started = (await tool.shellExec('echo start && sleep 0.2 && echo done', undefined, true)) as ShellJobStarted;
    expect(started.jobId).toMatch(/^job_/);
    const finished = await tool.shellJobOutput(started.jobId, 10);
    expect(finished).toMatchObject({ running: false, result: { exitCode: 0, stdout: 'start\ndone\n' } });
    await expect(tool.shellJobOutput(started.jobId)).rejects.toThrow(/no background job/);
    const long = (await tool.shellExec('sleep 30', undefined, true)) as ShellJobStarted;
    expect(await tool.shellJobOutput(long.jobId)).toMatchObject({ running: true });
    const killed = await tool.shellJobKill(long.jobId);
    expect(killed.signal).toBe('SIGTERM');
  });

  it('validates the command text itself', async () => {
    await expect(shell().shellExec('   ')).rejects.toThrow(/empty/);
    await expect(shell().shellExec('ls\0x')).rejects.toThrow(/NUL/);
    await expect(shell().shellExec('echo '.padEnd(5000, 'x'))).rejects.toThrow(/limit is 4096/);
  });
});

describe('shell_exec (disabled backend)', () => {
  it('refuses every call and says why', async () => {
    await expect(new ShellTool({ ...ws.env, shell: { backend: 'disabled', reason: 'this deployment has no shell' } }).shellExec('ls')).rejects.toThrow(
      'The shell is disabled in this workspace: this deployment has no shell. Use the file tools instead.',
    );
  });
});

describe('shell_exec (session backend)', () => {
  const session = (extra: Partial<Extract<ShellConfig, { backend: 'session' }>> = {}) =>
    new ShellTool({
      ...ws.env,
      shell: {
        backend: 'session',
        sandbox: testSandboxMode(),
        killGraceMs: 200,
        policy: { allow: ['ls', 'cd', 'pwd', 'echo', 'cat', 'sleep', 'printenv'], permit: ['assignment'] },
        ...extra,
      },
    });
  const inSession = (tool: ShellTool, command: string, sessionId = 's1', timeoutSeconds?: number) =>
    runWithToolContext(toolContext({ toolName: 'shell_exec', sessionId }), () => tool.shellExec(command, timeoutSeconds)) as Promise<ShellResult>;

  it('fits the output of a session command and its working directory into the output budget', async () => {
    ws.write('sub/long.txt', Array.from({ length: 5000 }, (_, i) => `row ${i}`).join('\n'));
    const tool = session();
    try {
      await inSession(tool, 'cd sub');
      const result = (await runWithToolContext(toolContext({ toolName: 'shell_exec', sessionId: 's1', outputBudget: { maxChars: 1_500 } }), () =>
        tool.shellExec('cat long.txt'),
      )) as ShellResult;
      const text = renderShellResult(result);
      expect(modelSize(text)).toBeLessThanOrEqual(1_500);
      expect(text).toMatch(/^exit code 0 \(\d+(\.\d)? m?s\); working directory: sub\n\[stdout\]\nrow 0\n[\s\S]*bytes omitted[\s\S]*row 4999$/);
    } finally {
      tool.dispose();
    }
  });

  it('keeps the working directory and exported variables between calls, per session', async () => {
    ws.write('sub/inner.txt', 'inner');
    const tool = session();
    try {
      expect(await inSession(tool, 'cd sub')).toMatchObject({ exitCode: 0, cwd: 'sub' });
      expect((await inSession(tool, 'cat inner.txt')).stdout).toBe('inner');
      expect((await inSession(tool, 'pwd')).stdout).toBe(`${ws.root}/sub\n`);
      await inSession(tool, 'export GREETING=hello');
      expect((await inSession(tool, 'printenv GREETING')).stdout).toBe('hello\n');
      // another session has its own shell
      expect(await inSession(tool, 'pwd', 's2')).toMatchObject({ stdout: `${ws.root}\n`, cwd: '.' });
      expect((await inSession(tool, 'printenv GREETING', 's2')).exitCode).toBe(1);
    } finally {
      tool.dispose();
    }
  });

  it('judges paths from the session directory, so cd never opens a way out', async () => {
    const tool = session();
    try {
      await inSession(tool, 'cd sub');
      await expect(inSession(tool, 'cat ../../etc/passwd')).rejects.toThrow(/outside/);
      await expect(inSession(tool, 'cd ../..')).rejects.toThrow(/outside/);
      await expect(inSession(tool, 'cd')).rejects.toThrow(/exactly one directory/);
      expect((await inSession(tool, 'pwd')).cwd).toBe('sub');
    } finally {
      tool.dispose();
    }
  });

  it('refuses unsafe variables, and splits output per call whatever the command prints', async () => {
    const tool = session();
    try {
      await expect(inSession(tool, 'export PATH=/tmp')).rejects.toThrow(/PATH cannot be set/);
      await expect(inSession(tool, 'LD_PRELOAD=/x.so')).rejects.toThrow(/LD_PRELOAD cannot be set/);
      const noisy = await inSession(tool, "echo -n 'no newline at the end'");
      expect(noisy.stdout).toBe('no newline at the end');
      expect((await inSession(tool, 'echo next')).stdout).toBe('next\n');
    } finally {
      tool.dispose();
    }
  });

  it('ends the session at a timeout and starts a fresh one next time', async () => {
    const tool = session();
    try {
      await inSession(tool, 'cd sub');
      const slow = await inSession(tool, 'sleep 30', 's1', 1);
      expect(slow).toMatchObject({ timedOut: true, sessionRestarted: true });
      const after = await inSession(tool, 'pwd');
      expect(after).toMatchObject({ stdout: `${ws.root}\n`, sessionRestarted: true, cwd: '.' });
    } finally {
      tool.dispose();
    }
  });
});
