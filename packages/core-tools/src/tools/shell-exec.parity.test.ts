import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShellPolicy } from '../shell/shell-policy.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { ShellTool, type ShellResult } from './shell-exec.js';
import { testSandboxMode } from '../test-support/sandbox-mode.js';
import { InFlight } from '../test-support/in-flight.js';

// Issue 17 §2.1: bash must read what the judge read. Every directory bash may be in must be the one
// the judge judged from, and a line bash would parse otherwise runs nothing. The judge
// locates `cd` targets as the kernel does (a symbolic link before the `..` after it); bash runs with
// -P in both backends, so its `cd` does the same. Each workspace sits next to a directory holding a
// secret, which no accepted command may read or write.

let parent: string;
let root: string;
beforeEach(() => {
  parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cwd-')));
  root = path.join(parent, 'ws');
  fs.mkdirSync(path.join(parent, 'outside'), { recursive: true });
  fs.writeFileSync(path.join(parent, 'outside/secret.txt'), 'SECRET\n');
  fs.mkdirSync(root);
});
const calls = new InFlight();
afterEach(async () => {
  await calls.settled(); // a property stopped at its time limit may leave its last command running
  fs.rmSync(parent, { recursive: true, force: true, maxRetries: 10 });
});

const POLICY: ShellPolicy = { allow: ['ls', 'cat', 'touch', 'mkdir', 'cp', 'cd', 'pwd', 'sleep'], permit: ['glob'] };
const tools: ShellTool[] = [];
afterEach(() => tools.splice(0).forEach((tool) => tool.dispose()));
function shell(backend: 'host' | 'session'): ShellTool {
  const tool = new ShellTool({
    workspace: new WorkspacePolicy({ root }),
    readHashes: new Map(),
    shell: { backend, policy: POLICY, sandbox: testSandboxMode() },
  });
  tools.push(tool);
  return tool;
}
const run = async (tool: ShellTool, command: string): Promise<ShellResult | Error> => {
  try {
    return (await calls.track(tool.shellExec(command))) as ShellResult;
  } catch (error) {
    return error as Error;
  }
};
const escaped = () => fs.existsSync(path.join(parent, 'outside/PWNED')) || fs.existsSync(path.join(parent, 'PWNED'));

/** node_modules/foo -> .pnpm/foo@1.0.0/node_modules/foo, as pnpm lays a workspace out. */
function pnpmLayout(): void {
  fs.mkdirSync(path.join(root, '.pnpm/foo@1.0.0/node_modules/foo'), { recursive: true });
  fs.mkdirSync(path.join(root, 'node_modules'));
  fs.symlinkSync('../.pnpm/foo@1.0.0/node_modules/foo', path.join(root, 'node_modules/foo'));
}

describe.each(['host', 'session'] as const)('shell_exec (%s): cd goes where the judge judged from', (backend) => {
  it('the review: a link whose target appears later cannot take cd out of the workspace', async () => {
    const tool = shell(backend);
    expect(await run(tool, 'mkdir -p a && touch a/b')).toMatchObject({ exitCode: 0 });
    // A link is made in a call of its own (linkOrderProblem).
    expect(await run(tool, 'cp -s a/b L')).toMatchObject({ exitCode: 0 });
    fs.rmSync(path.join(root, 'a/b')); // file_delete {"path":"a/b"}
    const result = await run(tool, 'mkdir a/b && cd L/../.. && pwd && cat outside/secret.txt && touch outside/PWNED');
    if (!(result instanceof Error)) {
      expect(result.stdout).not.toContain('SECRET');
      expect(result.stdout.split('\n')[0]).toBe(root); // L/../.. is a/b/../.. physically: the root
    }
    expect(escaped()).toBe(false);
  });

  it('pnpm, no set-up needed: node_modules/foo/../../.. is .pnpm for bash too, not the parent', async () => {
    pnpmLayout();
    const tool = shell(backend);
    const result = await run(tool, 'cd node_modules/foo/../../.. && pwd && cat outside/secret.txt && touch outside/PWNED');
    expect(result).not.toBeInstanceOf(Error);
    expect(result).toMatchObject({ stdout: `${root}/.pnpm\n`, stderr: expect.stringContaining('No such file') });
    if (backend === 'session') expect(result).toMatchObject({ cwd: '.pnpm' });
    expect(escaped()).toBe(false);
  });

  it('pwd -L, /bin/pwd -L and the next call agree with pwd -P: the shell keeps no logical path', async () => {
    pnpmLayout();
    const tool = shell(backend);
    const physical = `${root}/.pnpm/foo@1.0.0/node_modules/foo\n`;
    expect(await run(tool, 'cd node_modules/foo && pwd -L && /bin/pwd -L')).toMatchObject({ stdout: physical.repeat(2) });
    if (backend === 'session') expect(await run(tool, 'pwd -L')).toMatchObject({ stdout: physical, cwd: '.pnpm/foo@1.0.0/node_modules/foo' });
  });

  it('refuses $PWD even with the variable permit: bash sets it as the line runs', async () => {
    const tool = new ShellTool({
      workspace: new WorkspacePolicy({ root }),
      readHashes: new Map(),
      shell: { backend, policy: { ...POLICY, allow: [...POLICY.allow, 'echo'], permit: ['variable-expansion'] }, passEnv: ['PWD', 'OLDPWD', 'CDPATH'] },
    });
    tools.push(tool);
    expect(String(await run(tool, 'echo "$PWD"'))).toMatch(/bash sets \$PWD itself/);
    expect(String(await run(tool, 'echo $OLDPWD'))).toMatch(/bash sets \$OLDPWD itself/);
    expect(String(await run(tool, 'echo $CDPATH'))).toMatch(/not set in this shell/);
  });

  it.for(['cd -L node_modules/foo/../.. && pwd', 'cd -LP L && pwd', 'cd - && pwd', 'cd && pwd', 'cd node_modules | pwd', 'command cd node_modules'])(
    'refuses %s',
    async (command) => {
      pnpmLayout();
      expect(await run(shell(backend), command)).toBeInstanceOf(Error);
    },
  );

  it('property: for random chains of links and .., `cd X && pwd` prints where the kernel goes, which is inside', async () => {
    pnpmLayout();
    fs.mkdirSync(path.join(root, 'd/e'), { recursive: true });
    fs.symlinkSync('../..', path.join(root, 'd/e/up'));
    const tool = shell(backend);
    const segment = fc.constantFrom('..', 'd', 'e', 'up', 'node_modules', 'foo', '.pnpm', 'foo@1.0.0', '.');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 8 }), async (parts) => {
        const target = parts.join('/');
        const result = await run(tool, `cd -- ${target} && pwd`);
        if (result instanceof Error || result.exitCode !== 0) return;
        const kernel = spawnSync('/bin/sh', ['-c', 'cd -P -- "$1" && pwd -P', 'sh', target], { cwd: root, encoding: 'utf8' }).stdout;
        expect(result.stdout, target).toBe(kernel);
        expect(result.stdout === `${root}\n` || result.stdout.startsWith(`${root}/`), target).toBe(true);
        if (backend === 'session') await run(tool, `cd -- ${root}`);
      }),
      { numRuns: 40, examples: [[['node_modules', 'foo', '..']], [['node_modules', 'foo', '..', '..', '..']], [['d', 'e', 'up', 'e', 'up', '..']]] },
    );
    expect(escaped()).toBe(false);
  });
});

describe.each(['host', 'session'] as const)('shell_exec (%s): a .. after a name the line creates first', (backend) => {
  // The name does not exist when the line is judged; an earlier command may make it a symbolic link.
  it.for([
    (ws: string) => `mkdir sub && touch f && cp -s ${ws}/f sub/L && rm f && mkdir f && cd sub/L/../.. && cat outside/secret.txt`,
    (ws: string) => `mkdir sub && touch f && cp -s ${ws}/f sub/L && rm f && mkdir f && cat sub/L/../../outside/secret.txt`,
  ])('is refused: %s', async (line) => {
    const tool = new ShellTool({
      workspace: new WorkspacePolicy({ root }),
      readHashes: new Map(),
      shell: { backend, policy: { ...POLICY, allow: [...POLICY.allow, 'rm'] } },
    });
    tools.push(tool);
    const result = await run(tool, line(root));
    expect(String(result)).toMatch(/does not exist yet, and then '\.\.'/);
    expect(fs.existsSync(path.join(root, 'sub'))).toBe(false);
  });
});

describe('shell_exec (session): the shell starts each call where the judge judges from', () => {
  it('moves a shell that left the workspace back before the next command, not only in its records', async () => {
    fs.mkdirSync(path.join(root, 'sub'));
    const tool = shell('session');
    // The directory is swapped for a link to the outside between the verdict and the cd (the kind of
    // race only a kernel sandbox closes); the session notices the shell is outside and resets it.
    const racing = run(tool, 'sleep 0.3 && cd sub');
    await new Promise((resolve) => setTimeout(resolve, 100));
    fs.rmdirSync(path.join(root, 'sub'));
    fs.symlinkSync('../outside', path.join(root, 'sub'));
    // Without the sandbox the shell gets out and is moved back; inside it, the outside is not there to enter. On a
    // machine loaded enough that the judge looks only after the swap, it sees the link and nothing runs at all.
    const raced = await racing;
    if (raced instanceof Error) expect(raced).toMatchObject({ code: 'command_refused', message: expect.stringContaining("'sub' is outside the workspace") });
    else expect(raced).toMatchObject({ cwd: '.', stderr: expect.stringMatching(/reset to its root|cd: sub: No such file or directory/) });
    expect(await run(tool, 'pwd')).toMatchObject({ stdout: `${root}\n`, cwd: '.' });
  });

  it('does not follow a directory that became a link since the last call: it starts afresh instead', async () => {
    fs.mkdirSync(path.join(root, 'sub'));
    const tool = shell('session');
    expect(await run(tool, 'cd sub')).toMatchObject({ cwd: 'sub' });
    fs.rmdirSync(path.join(root, 'sub'));
    fs.symlinkSync('../outside', path.join(root, 'sub'));
    const result = await run(tool, 'ls');
    expect(result).toMatchObject({ sessionRestarted: true, cwd: '.' });
    expect((result as ShellResult).stdout).not.toContain('secret.txt');
    expect(await run(tool, 'pwd')).toMatchObject({ stdout: `${root}\n` });
  });
});

describe.each(['host', 'session'] as const)('shell_exec (%s): a line bash would not parse as the judge did runs nothing', (backend) => {
  it.for([
    ['ls ;; touch PWNED', /not valid bash: syntax error near unexpected token `;;'/],
    ['touch PWNED; done', /not valid bash/],
    ['touch PWNED\r\nls', /carriage-return/],
    ['time touch PWNED', /keyword/],
    ['touch PW\\\nNED', /line continuation/],
    ['touch $"PWNED"', /translated through the locale/],
    ['touch a=~/PWNED', /bash expands the '~'/],
  ] as const)('%j', async ([command, reason]) => {
    const result = await run(shell(backend), command);
    expect(result).toBeInstanceOf(Error);
    expect(String(result)).toMatch(reason);
    expect(fs.existsSync(path.join(root, 'PWNED'))).toBe(false);
  });
});
