// The kernel sandbox as a user meets it through the CLI: `doctor` and the warnings of `call`/`serve`,
// `shell.sandbox` in the config file, and the review's logical-`cd` chain in both modes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolwright } from './support/run.js';

const hasSandbox = spawnSync('bwrap', ['--version']).status === 0;
if (!hasSandbox && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error('CI installs bubblewrap: the sandbox e2e suite must run');

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** An empty workspace beside a directory holding a secret, as in the review. */
function setUp(config?: Record<string, unknown>): { ws: string; outside: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sbx-e2e-')));
  temporary.push(base);
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
  if (config) fs.writeFileSync(path.join(ws, 'toolwright.config.json'), JSON.stringify(config));
  return { ws, outside };
}

function withEnv<T>(name: string, value: string, run: () => T): T {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

const call = (ws: string, tool: string, args: object) => toolwright(['call', tool, '--args', JSON.stringify(args), '--yes', '--audit', 'none'], ws);

describe('toolwright doctor', () => {
  it.skipIf(!hasSandbox)('says commands run in the kernel sandbox where bubblewrap works', () => {
    const { ws } = setUp();
    const result = toolwright(['doctor'], ws);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^sandbox +bubblewrap [\d.]+ at \/\S+: every command runs in the kernel sandbox$/m);
    expect(result.stdout).toMatch(/^shell +host backend, sandbox: auto$/m);
  });

  it('warns under auto and fails under required where there is no sandbox', () => {
    const { ws } = setUp();
    const auto = withEnv('TOOLWRIGHT_BWRAP', '/nonexistent/bwrap', () => toolwright(['doctor'], ws));
    expect(auto.status).toBe(0);
    expect(auto.stdout).toMatch(/^sandbox +warning: the kernel sandbox is unavailable \(\/nonexistent\/bwrap is not an executable file\)/m);
    fs.writeFileSync(path.join(ws, 'toolwright.config.json'), JSON.stringify({ shell: { sandbox: 'required' } }));
    const required = withEnv('TOOLWRIGHT_BWRAP', '/nonexistent/bwrap', () => toolwright(['doctor'], ws));
    expect(required.status).toBe(1);
    expect(required.stdout).toMatch(/^sandbox +error: the kernel sandbox is required but unavailable/m);
  });
});

describe('toolwright call without a sandbox', () => {
  it('warns on stderr under auto and runs the command with the judge alone', () => {
    const { ws } = setUp();
    const result = withEnv('TOOLWRIGHT_BWRAP', '/nonexistent/bwrap', () => call(ws, 'shell_exec', { command: 'echo hi' }));
    expect(result.stderr).toContain('warning: the kernel sandbox is unavailable');
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', output: { exitCode: 0, stdout: 'hi\n', ranIn: 'host' } });
  });

  it('refuses every command under required, with a code and the reason', () => {
    const { ws } = setUp({ shell: { sandbox: 'required' } });
    const result = withEnv('TOOLWRIGHT_BWRAP', '/nonexistent/bwrap', () => call(ws, 'shell_exec', { command: 'echo hi' }));
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as { status: string; error: { code: string; errorCode?: string }; content: string };
    expect(report.status).toBe('error');
    expect(JSON.stringify(report)).toContain('sandbox_unavailable');
    expect(report.content).toContain('the kernel sandbox is required but unavailable');
  });
});

describe.for([
  ['the sandbox', { shell: { sandbox: 'auto' } }, hasSandbox],
  ['the judge alone', { shell: { sandbox: 'off' } }, true],
] as const)("the review's chain: cd through a link, then ..  (%s)", ([_mode, config, runs]) => {
  it.skipIf(!runs)('reads nothing outside and writes nothing outside', () => {
    const { ws, outside } = setUp(config);
    expect(call(ws, 'shell_exec', { command: 'mkdir -p a && touch a/b' }).status).toBe(0);
    expect(call(ws, 'shell_exec', { command: 'cp -s a/b L' }).status).toBe(0); // a link is made in a call of its own
    call(ws, 'file_delete', { path: 'a/b' });
    const result = call(ws, 'shell_exec', { command: 'mkdir a/b && cd L/../.. && pwd && cat outside/secret.txt && touch outside/PWNED' });
    expect(result.stdout).not.toContain('OUTSIDE-SECRET');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
});
