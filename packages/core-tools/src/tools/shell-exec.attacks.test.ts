import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { DEFAULT_SHELL_POLICY, type ShellPolicy } from '../shell/shell-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';
import { ShellTool, type ShellResult } from './shell-exec.js';
import { testSandboxMode } from '../test-support/sandbox-mode.js';
import { InFlight } from '../test-support/in-flight.js';

// Hostile command lines by class. Each case is tried as the attacker would: the files it needs are
// written first (as file_write would), then the command runs through shell_exec, and what matters
// is what happened on disk, not only the message.

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace({ 'notes.txt': 'TODO: x\n', 'src/a.ts': 'a', 'src/b.ts': 'b' });
});
const calls = new InFlight();
afterEach(async () => {
  await calls.settled(); // a property stopped at its time limit may leave its last command running
  ws.cleanup();
});

const host = (policy: ShellPolicy = DEFAULT_SHELL_POLICY): ShellTool =>
  new ShellTool({ ...ws.env, shell: { backend: 'host', policy, sandbox: testSandboxMode() } });
const session = (policy: ShellPolicy): ShellTool =>
  new ShellTool({ ...ws.env, shell: { backend: 'session', policy, sandbox: testSandboxMode() } as ShellConfig });
const run = async (tool: ShellTool, command: string): Promise<ShellResult | Error> => {
  try {
    return (await calls.track(tool.shellExec(command))) as ShellResult;
  } catch (error) {
    return error as Error;
  }
};
const pwned = () => fs.existsSync(path.join(ws.root, 'PWNED'));

describe('what the program receives: globs are expanded before the verdict', () => {
  it.for([
    ['-exec', 'find . -maxdepth 0 -exe* touch PWNED \\;'],
    ['-exec', 'find . -maxdepth 0 -e?ec touch PWNED \\;'],
    ['-exec', 'find . -maxdepth 0 -[e]xec touch PWNED \\;'],
    ['-execdir', 'find . -maxdepth 0 -execd* touch PWNED \\;'],
    ['-delete', 'find -de*'],
    ['-delete', 'find . -[d]elete'],
    ['-fprint', 'find . -fpr* PWNED'],
    ['--output=PWNED', 'sort --out* notes.txt'],
    ['--compress-program=touch', 'sort --compress* notes.txt'],
    ['--pre=touch', 'rg TODO *'],
    ['-L', 'ls -*'],
  ] as const)('a file named %s cannot become an option: %s', async ([name, command]) => {
    ws.write(name, '');
    ws.write('keep/me.txt', 'x');
    await run(host(), command);
    expect(pwned()).toBe(false);
    expect(fs.existsSync(path.join(ws.root, 'keep/me.txt'))).toBe(true);
  });

  it('passes matches that start with - as ./-name, and an unmatched glob as the word itself', async () => {
    ws.write('-n', '');
    const result = await run(host(), 'ls -1 -? *.none');
    expect(result).not.toBeInstanceOf(Error);
    expect((result as ShellResult).stdout + (result as ShellResult).stderr).toMatch(/\.\/-n/);
    expect((result as ShellResult).stderr).toContain('*.none');
  });

  it('property: for any file name, a glob matching it never hands the program that name as an option', async () => {
    const flag = fc.constantFrom(
      '-exec',
      '-delete',
      '-execdir',
      '-ok',
      '-fprint',
      '-fls',
      '--pre=sh',
      '--output=o',
      '--compress-program=sh',
      '-L',
      '--follow',
      '-R',
      '--set=now',
    );
    await fc.assert(
      fc.asyncProperty(flag, fc.nat(), async (name, cut) => {
        const dir = fs.mkdtempSync(path.join(ws.root, 'g-'));
        fs.writeFileSync(path.join(dir, name), '');
        const keep = name.slice(0, 1 + (cut % name.length));
        const tool = host({ allow: ['find', 'ls', 'sort', 'rg', 'grep', 'date', 'cd'], permit: ['glob'] });
        for (const program of ['find', 'ls', 'sort', 'grep x', 'date']) {
          const result = await run(tool, `cd ${path.basename(dir)} && ${program} ${keep}*`);
          if (!(result instanceof Error)) expect(result.stdout + result.stderr).not.toMatch(/PWNED/);
        }
        expect(pwned()).toBe(false);
      }),
      { numRuns: 25 },
    );
  });

  it('never lists a directory outside the workspace through a glob', async () => {
    fs.symlinkSync('/etc', path.join(ws.root, 'etc-link'));
    const result = await run(host(), 'ls etc-link/pass*');
    expect(result).toBeInstanceOf(Error);
    expect(String(result)).toMatch(/outside|link/);
  });
});

describe('what the program receives: every word is passed exactly as judged', () => {
  it('property: any printable words reach the program unchanged', async () => {
    const tool = host({ allow: ['printf'] });
    const word = fc.string({
      unit: fc.constantFrom('a', ' ', '*', '?', '$', '`', '"', "'", '\\', '!', '-', ';', '|', '&', '#', '~', '{', '}', '[', ']', '(', ')', '<', '>', 'é'),
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 4 }), async (words) => {
        const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
        const result = await run(tool, `printf '%s\\n' ${quoted}`);
        expect(result).not.toBeInstanceOf(Error);
        expect((result as ShellResult).stdout).toBe(words.map((w) => `${w}\n`).join(''));
      }),
      { numRuns: 40 },
    );
    expect(pwned()).toBe(false);
  });

  it('substitutes permitted variables itself, so a value cannot become an unjudged option', async () => {
    const policy: ShellPolicy = { allow: ['find', 'echo'], permit: ['variable-expansion', 'assignment'] };
    expect(await run(session(policy), 'X=-exec; find . -maxdepth 0 "$X" touch PWNED \\;')).toBeInstanceOf(Error);
    expect(await run(host(policy), 'X=-delete; find . "$X"')).toBeInstanceOf(Error);
    expect(await run(host(policy), 'echo $UNSET_NAME')).toBeInstanceOf(Error);
    expect(await run(host(policy), 'echo ${X:-$(touch PWNED)}')).toBeInstanceOf(Error);
    const ok = await run(session(policy), 'X="a b"; echo "$X"');
    expect(ok).toMatchObject({ stdout: 'a b\n' });
    expect(pwned()).toBe(false);
  });
});

describe('arguments that never looked like paths', () => {
  const outsideOf = () => path.dirname(ws.root);
  it.for([
    'mkdir -- --x && cp -- notes.txt --x/../../victim-planted',
    'cat -- --x/../../../../etc/hostname',
    'cd -- --x/../../ && ls',
    'cp -t.git notes.txt',
    'date -f.env',
    'cp -b -Sit notes.txt .g',
    'cp --suffix=it notes.txt .g',
    'env -i git status --short',
    'env -u GIT_DIR git status',
    'env - git status',
    'sort --files0-from list',
    'find -files0-from list -printf %p',
    'du --files0-from=list',
    'wc --files0-from=list',
    'file -f list',
    'touch "invoice\u202efdp.exe"',
    'mkdir "\u2066x"',
    'touch x && git status',
    'mkdir d; git log',
  ])('refuses %s', async (command) => {
    ws.write('.env', 'API_KEY=secret\n');
    ws.write('list', '/etc/passwd\0');
    ws.write('.g', 'gitdir: repo\n');
    fs.mkdirSync(path.join(ws.root, '--x'), { recursive: true });
    const text = command.replace(/\\u([0-9a-f]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const result = await run(host(), text);
    expect(result, text).toBeInstanceOf(Error);
    expect(fs.existsSync(path.join(outsideOf(), 'victim-planted'))).toBe(false);
    expect(fs.existsSync(path.join(ws.root, '.git'))).toBe(false);
  });

  it("runs git only on the workspace's own .git directory: a gitdir file is refused, a planted repository is not used", async () => {
    ws.write('repo/HEAD', 'ref: refs/heads/main\n');
    ws.write('repo/objects/k', '');
    ws.write('repo/refs/heads/k', '');
    ws.write('repo/config', '[core]\n\trepositoryformatversion = 0\n[diff]\n\texternal = "touch PWNED;"\n');
    ws.write('.git', 'gitdir: repo\n');
    ws.write('a', 'a');
    ws.write('b', 'b');
    const result = await run(host(), 'git diff --no-index a b');
    expect(result).toBeInstanceOf(Error);
    expect(String(result)).toMatch(/\.git is a file/);
    expect(pwned()).toBe(false);
  });
});

describe('.. after a symbolic link is read as the kernel reads it', () => {
  // npm and pnpm workspaces hold links like node_modules/@scope/pkg -> ../../packages/pkg: `link/..` is
  // the parent of the link's target, so a chain of them climbs out of a text-normalised check.
  const setUp = () => {
    fs.mkdirSync(path.join(ws.root, 'packages/cli'), { recursive: true });
    fs.mkdirSync(path.join(ws.root, 'node_modules/@t'), { recursive: true });
    fs.symlinkSync('../../packages/cli', path.join(ws.root, 'node_modules/@t/cli'));
    fs.mkdirSync(path.join(ws.root, 'd/e'), { recursive: true });
    fs.symlinkSync('../..', path.join(ws.root, 'd/e/up'));
  };
  it.for([
    'head -2 node_modules/@t/cli/../../node_modules/@t/cli/../../node_modules/@t/cli/../../../../../etc/passwd',
    'ls node_modules/@t/cli/../../..',
    'cp notes.txt node_modules/@t/cli/../../../PWN3',
    'head -1 d/e/up/../../../etc/passwd',
    'touch d/e/up/../PWNED_OUTSIDE',
    'cd d/e/up/.. && ls',
    'cd node_modules/@t/cli && cat ../../../../etc/hostname',
  ])('refuses %s', async (command) => {
    setUp();
    const result = await run(host(), command);
    expect(result, command).toBeInstanceOf(Error);
    expect(String(result)).toMatch(/outside/);
    expect(fs.existsSync(path.join(path.dirname(ws.root), 'PWN3'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(ws.root), 'PWNED_OUTSIDE'))).toBe(false);
  });

  it('still lets a link lead where it leads inside', async () => {
    setUp();
    ws.write('packages/cli/index.js', 'x');
    ws.write('packages/readme.md', 'r');
    expect(await run(host(), 'cat node_modules/@t/cli/index.js')).toMatchObject({ stdout: 'x' });
    expect(await run(host(), 'cat node_modules/@t/cli/../readme.md')).toMatchObject({ stdout: 'r' });
  });

  it('property: for random chains of links and .., the verdict matches where the kernel goes', async () => {
    setUp();
    const segment = fc.constantFrom('..', 'd', 'e', 'up', 'node_modules', '@t', 'cli', 'packages', '.');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 9 }), async (parts) => {
        const target = parts.join('/');
        const result = await run(host({ allow: ['realpath'] }), `realpath -e -- ${target}`);
        if (result instanceof Error) return;
        // Accepted: where the kernel really went must be inside the workspace.
        const real = result.stdout.trim();
        if (result.exitCode === 0) expect(real === ws.root || real.startsWith(`${ws.root}/`), `${target} -> ${real}`).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a link one command makes is gone through only by a later call, judged with the link there', () => {
  // Found by a red-team pass: every path of a line is judged against the files as they are before it runs, and a
  // relative link copied as a link (cp -P, -d, -a, -r) points elsewhere from its new folder — here out of the
  // workspace. With the sandbox off, a later command of the same line read and wrote through it.
  let outside: string;
  const setUp = () => {
    outside = path.join(path.dirname(ws.root), `${path.basename(ws.root)}-outside`);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
    fs.mkdirSync(path.join(ws.root, 'd'));
    // Inside, from d/: ../<name>-outside is a folder of the workspace; copied to the root it leads beside it.
    fs.symlinkSync(`../${path.basename(outside)}`, path.join(ws.root, 'd/lnk'));
  };
  afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));

  it.for([
    'cp -P d/lnk L && cat L/secret.txt',
    'cp -d d/lnk L; cp notes.txt L/planted.txt',
    'cp -r d/lnk M && cat M/secret.txt',
    'cp -P d/lnk L && cd L && cat secret.txt',
    'cat L/secret.txt | cp -P d/lnk L',
    'cp -a d/lnk L | grep -r SECRET L',
  ])('refuses %s', async (command) => {
    setUp();
    const result = await run(host(), command);
    expect(result, command).toBeInstanceOf(Error);
    expect(String(result)).toMatch(/symbolic links, which '[a-z]+' in the same line would go through/);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(fs.existsSync(path.join(ws.root, 'L'))).toBe(false);
  });

  it('runs the copy alone, and judges the next call with the link there', async () => {
    setUp();
    expect(await run(host(), 'cp -P d/lnk L')).toMatchObject({ exitCode: 0 });
    expect(fs.readlinkSync(path.join(ws.root, 'L'))).toBe(`../${path.basename(outside)}`);
    for (const command of ['cat L/secret.txt', 'cp notes.txt L/planted.txt', 'touch L/x']) {
      const result = await run(host(), command);
      expect(result, command).toBeInstanceOf(Error);
      expect(String(result), command).toMatch(/outside/);
    }
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('variables a permitted assignment may not set', () => {
  it.for([
    'RIPGREP_CONFIG_PATH',
    'GCONV_PATH',
    'LOCPATH',
    'GLIBC_TUNABLES',
    'LD_PRELOAD',
    'GIT_DIR',
    'NODE_OPTIONS',
    'PYTHONSTARTUP',
    'WGETRC',
    'XDG_CONFIG_HOME',
    'GREP_OPTIONS',
    'TAR_OPTIONS',
    'MANPAGER',
    'JAVA_TOOL_OPTIONS',
    'HOME',
    'path',
  ])('refuses %s=...', async (name) => {
    const policy: ShellPolicy = { allow: ['echo', 'rg'], permit: ['assignment'] };
    for (const command of [`${name}=x`, `export ${name}=x`]) {
      const result = await run(session(policy), command);
      expect(result, command).toBeInstanceOf(Error);
    }
  });

  it('still lets ordinary names be set', async () => {
    const result = await run(session({ allow: ['echo'], permit: ['assignment'] }), 'export CI=true FEATURE_FLAG=x; echo ok');
    expect(result).toMatchObject({ stdout: 'ok\n' });
  });
});

describe('programs that run other programs or take arguments from input', () => {
  it.for([
    'echo -exec touch PWNED ";" | xargs find .',
    'env -S "touch PWNED" true',
    'env --split-string="touch PWNED" true',
    'env -C / ls',
    'printf -v PATH /tmp',
    'date -s 2001-01-01',
    'date --se=2001-01-01',
    'sort --compress-prog=touch notes.txt',
    'sort --out=PWNED notes.txt',
    'sort -oPWNED notes.txt',
    'rg -nz TODO',
    'rg --pre=touch TODO',
    'rg --hostname-bin=touch TODO',
    'grep -f/etc/passwd notes.txt',
    'cat -- /etc/passwd',
    'git log --outp=PWNED',
    'git branch PWNED',
    'git branch -D main',
    'tree -R',
    'diff -r src /etc',
    'timeout --foreground 5 bash -c "touch PWNED"',
    'nice -n 5 xargs touch',
    'command -p sh -c "touch PWNED"',
    'kill -9 1',
  ])('refuses %s', async (command) => {
    const result = await run(host(), command);
    expect(result, command).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(/refused/);
    expect(pwned()).toBe(false);
  });
});

describe('what configuration a program obeys', () => {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ws.root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'pipe' });

  it.for([
    ['core.fsmonitor', 'touch PWNED; false'],
    ['core.pager', 'touch PWNED'],
    ['core.hooksPath', 'hooks'],
    ['core.editor', 'touch PWNED'],
  ] as const)('neutralises %s from .git/config', async ([key, value]) => {
    git('init', '-q');
    git('config', key, value);
    const result = await run(host(), 'git status --short');
    expect(result).not.toBeInstanceOf(Error);
    expect(pwned()).toBe(false);
  });

  it.for([
    ['diff.external', 'touch PWNED'],
    ['diff.evil.textconv', 'touch PWNED'],
    ['filter.evil.clean', 'touch PWNED'],
    ['core.worktree', '/'],
    ['include.path', '../outside.cfg'],
  ] as const)('refuses to run git where %s is set', async ([key, value]) => {
    git('init', '-q');
    git('config', key, value);
    ws.write('.gitattributes', '* diff=evil filter=evil\n');
    const result = await run(host(), 'git diff');
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain(key);
    expect(pwned()).toBe(false);
  });

  it('property: any driver or program setting, under any subsection name, keeps git from running', async () => {
    git('init', '-q');
    const key = fc
      .tuple(
        fc.constantFrom(
          'diff.%.textconv',
          'diff.%.command',
          'filter.%.clean',
          'filter.%.smudge',
          'filter.%.process',
          'merge.%.driver',
          'credential.%.helper',
          'gpg.%.program',
          'remote.%.uploadpack',
          'difftool.%.cmd',
          'pager.%',
          'includeIf.gitdir:%/.path',
        ),
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/),
      )
      .map(([template, name]) => template.replace('%', name));
    await fc.assert(
      fc.asyncProperty(key, async (name) => {
        fs.writeFileSync(path.join(ws.root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
        git('config', name, 'touch PWNED');
        const result = await run(host(), 'git log');
        expect(result, name).toBeInstanceOf(Error);
        expect(pwned()).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('does not treat a planted bare repository (HEAD, config, objects/, refs/) as a repository', async () => {
    ws.write('bare/HEAD', 'ref: refs/heads/main\n');
    ws.write('bare/config', '[core]\n\tbare = true\n\tfsmonitor = "touch ../PWNED; false"\n');
    fs.mkdirSync(path.join(ws.root, 'bare/objects'), { recursive: true });
    fs.mkdirSync(path.join(ws.root, 'bare/refs'), { recursive: true });
    await run(host(), 'cd bare && git status');
    expect(pwned()).toBe(false);
    const found = await run(host(), 'cd bare && git rev-parse --git-dir');
    expect(found).toMatchObject({ exitCode: 128, stderr: expect.stringMatching(/bare|not a git repository/i) });
  });

  it('never looks for a repository above the workspace root', async () => {
    const result = await run(host(), 'git rev-parse --show-toplevel');
    expect(result).not.toBeInstanceOf(Error);
    expect((result as ShellResult).exitCode).not.toBe(0);
  });

  it('keeps workspace directories and relative entries out of PATH', async () => {
    ws.write('bin/ls', '#!/bin/sh\ntouch PWNED\n');
    fs.chmodSync(path.join(ws.root, 'bin/ls'), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${path.join(ws.root, 'bin')}:.:bin:${saved}`;
    try {
      await run(host(), 'ls');
    } finally {
      process.env.PATH = saved;
    }
    expect(pwned()).toBe(false);
  });
});

describe('protected paths are protected for the shell too', () => {
  it.for([
    'cp notes/cfg .git/config',
    'cp notes/cfg ./.git/../.git/config',
    'cp notes/cfg sub/.git/config',
    'uniq notes/cfg .git/config',
    'touch .env',
    'mkdir -p .toolwright/x',
    'cat .env',
    'cp -r evil/. .',
    'cp -rT evil .',
    'cp -a evil sub',
    'ls .git',
    'cd .git && ls',
  ])('refuses %s', async (command) => {
    ws.write('notes/cfg', '[core]\n\tfsmonitor = touch PWNED\n');
    ws.write('evil/.git/config', '[core]\n\tfsmonitor = touch PWNED\n');
    ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    ws.write('.env', 'SECRET=1\n');
    fs.mkdirSync(path.join(ws.root, 'sub'), { recursive: true });
    const tool = host({ ...DEFAULT_SHELL_POLICY, allow: [...DEFAULT_SHELL_POLICY.allow, 'uniq'] });
    const result = await run(tool, command);
    expect(result, command).toBeInstanceOf(Error);
    expect(fs.existsSync(path.join(ws.root, '.git/config'))).toBe(false);
    expect(fs.existsSync(path.join(ws.root, 'sub/.git'))).toBe(false);
  });

  it('refuses redirections into protected paths', async () => {
    const result = await run(host({ allow: ['echo'], permit: ['redirection'] }), 'echo x > .git/config');
    expect(result).toBeInstanceOf(Error);
    expect(fs.existsSync(path.join(ws.root, '.git/config'))).toBe(false);
  });
});
