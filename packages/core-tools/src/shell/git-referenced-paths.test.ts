// What a protected repository configuration has the host's git read or run, and protected names below the
// root that are links (found by a twelfth pass): with the judge switched off, no command may change them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { probeSandbox, systemProgram } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { ShellTool, type ShellResult } from '../tools/shell-exec.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import type { ShellConfig } from './shell-config.js';
import { gitConfigReferences } from './git-config-references.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);
const hasGit = systemProgram('git') !== undefined;

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-gitrefs-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
let made = 0;

/** A fresh workspace with `files` (and `links`: name to target), and a judge-less shell on it. */
function setUp(backend: 'host' | 'session', files: Record<string, string>, links: Record<string, string> = {}, deniedPaths: string[] = []) {
  const root = path.join(base, `ws${++made}`);
  fs.mkdirSync(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text, { mode: 0o755 });
  }
  for (const [name, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.symlinkSync(target, path.join(root, name));
  }
  const tool = new ShellTool({
    workspace: new WorkspacePolicy({ root, ...(deniedPaths.length > 0 ? { deniedPaths } : {}) }),
    shell: { backend, unjudged: true, timeoutMs: 20_000, killGraceMs: 200 } as ShellConfig,
  });
  const run = async (command: string): Promise<string> => {
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      const result = (await runWithToolContext(context, () => tool.shellExec(command, 20))) as ShellResult;
      return `${result.stdout}\n${result.stderr}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const read = (name: string) => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name), 'utf8') : undefined);
  return { root, tool, run, read };
}

/** Every way a command tries to change a file: write, append, replace, remove, and the folder it is in. */
function tamper(file: string): string {
  const dir = path.dirname(file);
  return `echo evil > ${file}; echo evil >> ${file}; rm -f ${file}; echo evil > ${file}; mv ${dir} ${dir}-moved; rm -rf ${dir}; mkdir -p ${dir}; echo evil > ${file}`;
}

describe.skipIf(!support.available)('protected names below the root that are links', () => {
  it.for(['host', 'session'] as const)('refuses to run, as at the root (%s backend)', async (backend) => {
    const { root, tool, run, read } = setUp(backend, { '.env': 'KEY=1\n', 'config/app.env': 'DB=prod\n', 'ok.txt': 'x' }, { 'apps/web/.env': '../../.env' });
    try {
      const text = await run('rm -f apps/web/.env && echo evil > apps/web/.env; echo evil > config/app.env; echo done');
      expect(text).toMatch(/^Shell commands cannot run: the protected path 'apps\/web\/\.env' is a symbolic link/);
      expect(fs.readlinkSync(path.join(root, 'apps', 'web', '.env'))).toBe('../../.env');
      expect(read('config/app.env')).toBe('DB=prod\n');
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available || !hasGit)("what the repository's configuration has git read or run", () => {
  it.for(['host', 'session'] as const)(
    "keeps core.hooksPath's hooks (husky's .husky) read-only, and a missing one uncreatable (%s backend)",
    async (backend) => {
      const { tool, run, read } = setUp(backend, {
        '.git/config': '[core]\n\thooksPath = .husky\n',
        '.husky/pre-commit': '#!/bin/sh\nnpm test\n',
        'pkg/.git/config': '[core]\n\thooksPath = hooks/_\n',
        'ok.txt': 'x',
      });
      try {
        const text = await run(`${tamper('.husky/pre-commit')}; echo evil > .husky/post-checkout; ${tamper('pkg/hooks/_/pre-push')}; echo done`);
        expect(text).toContain('done');
        expect(read('.husky/pre-commit')).toBe('#!/bin/sh\nnpm test\n');
        expect(read('.husky/post-checkout')).toBeUndefined();
        expect(read('pkg/hooks/_/pre-push') ?? '').toBe('');
        expect(await run('echo made > ok.txt; cat ok.txt')).toContain('made');
      } finally {
        tool.dispose();
      }
    },
  );

  // An independent review: a hook that runs a script of the work tree that is not there yet (`exec sh
  // ./scripts/pre-commit.sh`) ran what a command wrote there at the user's next commit.
  it.for(['host', 'session'] as const)(
    'keeps the scripts hooks name by path uncreatable while missing, whatever folder is missing on the way (%s backend)',
    async (backend) => {
      const hook = [
        '#!/bin/sh',
        '# run ./tools/not-a-script.sh by hand first',
        'exec sh ./scripts/pre-commit.sh "$@"',
        'bin/check --all && ./lint.sh',
        'node_modules/.bin/lint-staged',
      ].join('\n');
      const { root, tool, run, read } = setUp(backend, { '.git/hooks/pre-commit': `${hook}\n`, 'bin/.keep': '', 'ok.txt': 'x' });
      try {
        const planted = ['scripts/pre-commit.sh', 'bin/check', 'lint.sh'];
        const text = await run(`${planted.map(tamper).join('; ')}; mkdir -p node_modules/.bin && echo installed > node_modules/.bin/lint-staged; echo done`);
        expect(text).toContain('done');
        for (const file of planted) expect(read(file) ?? '', file).toBe('');
        // What an install makes is the install's (a placeholder in node_modules would fail every install).
        expect(read('node_modules/.bin/lint-staged')).toBe('installed\n');
        // A commented-out line names nothing: no placeholder made for it, nor for the shebang.
        expect(fs.existsSync(path.join(root, 'tools'))).toBe(false);
        expect(fs.readdirSync(root).filter((name) => name.startsWith('#'))).toEqual([]);
        expect(await run('echo made > ok.txt; cat ok.txt')).toContain('made');
      } finally {
        tool.dispose();
      }
      // Let go of once the command ends: no placeholder is left behind (a session's shell ends first: seconds on a
      // loaded machine, past the 5 s this waited once, in a CI run).
      await vi.waitFor(
        () => {
          expect(fs.existsSync(path.join(root, 'scripts'))).toBe(false);
          expect(fs.existsSync(path.join(root, 'lint.sh'))).toBe(false);
        },
        { timeout: 30_000, interval: 50 },
      );
    },
  );

  // An independent review read a private key outside the workspace, line by line: a nested repository a command made
  // named that folder as its hooks, and the words of the "hooks" came back as placeholders in the workspace.
  it.for(['host', 'session'] as const)(
    'lets no repository a command makes have the host read outside the workspace or a denied path (%s backend)',
    async (backend) => {
      const outside = fs.mkdtempSync(path.join(base, 'outside-'));
      fs.mkdirSync(path.join(outside, 'hooks'));
      fs.writeFileSync(path.join(outside, 'hooks', 'id_key'), 'AAAA/OUTSIDE/LINE\n');
      fs.writeFileSync(path.join(outside, 'more.gitconfig'), '[core]\n\tfsmonitor = ./CCCC/INCLUDED/x\n');
      const { root, tool, run } = setUp(backend, { 'secrets/hooks/k': 'BBBB/DENIED/LINE\n', 'ok.txt': 'x' }, {}, ['secrets/**']);
      try {
        const config = (hooks: string) => `'[core]\\n\\thooksPath = ${hooks}\\n[include]\\n\\tpath = ${outside}/more.gitconfig\\n'`;
        const made = await run(
          `mkdir -p sub/.git sub2/.git && printf ${config(`${outside}/hooks`)} > sub/.git/config && printf ${config('../secrets/hooks')} > sub2/.git/config && echo made`,
        );
        expect(made).toContain('made');
        const listed = await run('ls -R sub sub2; echo listed');
        expect(listed).toContain('listed');
        for (const word of ['AAAA', 'OUTSIDE', 'BBBB', 'DENIED', 'CCCC', 'INCLUDED']) expect(listed, word).not.toContain(word);
        const onHost = fs.readdirSync(root, { recursive: true }).map(String);
        expect(onHost.filter((entry) => /AAAA|BBBB|CCCC/.test(entry))).toEqual([]);
      } finally {
        tool.dispose();
      }
    },
  );

  // The third review: the user's `git status` in the root runs git in every submodule, which obeys that repository's
  // configuration; a command made one where a submodule was not checked out, with a `core.fsmonitor` of its own.
  it.for(['host', 'session'] as const)("lets no command make a repository where the root's .gitmodules has a submodule (%s backend)", async (backend) => {
    const { root, tool, run } = setUp(backend, {
      '.git/config': '[core]\n\trepositoryformatversion = 0\n',
      '.gitmodules': '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n[submodule "x"]\n\tpath = "tools/x"\n',
      'vendor/lib/.keep': '',
    });
    try {
      const text = await run(
        'mkdir -p vendor/lib/.git && printf "[core]\\n\\tfsmonitor = ./fsmon.sh\\n" > vendor/lib/.git/config; mkdir -p tools/x/.git && echo x > tools/x/.git/HEAD; echo made > ok.txt; echo done',
      );
      expect(text).toContain('done');
      expect(fs.existsSync(path.join(root, 'vendor', 'lib', '.git', 'config'))).toBe(false);
      expect(fs.existsSync(path.join(root, 'tools', 'x', '.git', 'HEAD'))).toBe(false);
      expect(fs.readFileSync(path.join(root, 'ok.txt'), 'utf8')).toBe('made\n');
    } finally {
      tool.dispose();
    }
  });

  // The third review: a workspace that is a folder of a larger repository, whose hook runs the workspace's script.
  it.for(['host', 'session'] as const)('keeps what the repository the workspace lies in runs read-only (%s backend)', async (backend) => {
    const parent = path.join(base, `parent${++made}`);
    fs.mkdirSync(path.join(parent, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(parent, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\ncd app && sh scripts/pre-commit.sh\nsh app/scripts/lint.sh\n');
    const root = path.join(parent, 'app');
    fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(root, 'scripts', 'pre-commit.sh'), 'echo ok\n');
    const tool = new ShellTool({
      workspace: new WorkspacePolicy({ root }),
      shell: { backend, unjudged: true, timeoutMs: 20_000, killGraceMs: 200 } as ShellConfig,
    });
    try {
      const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
      const result = (await runWithToolContext(context, () =>
        tool.shellExec('echo evil >> scripts/pre-commit.sh; echo evil > scripts/lint.sh; echo made > other.txt; echo done', 20),
      )) as ShellResult;
      expect(result.stdout).toContain('done');
      expect(fs.readFileSync(path.join(root, 'scripts', 'pre-commit.sh'), 'utf8')).toBe('echo ok\n');
      expect(fs.existsSync(path.join(root, 'scripts', 'lint.sh')) ? fs.readFileSync(path.join(root, 'scripts', 'lint.sh'), 'utf8') : '').toBe('');
      expect(fs.readFileSync(path.join(root, 'other.txt'), 'utf8')).toBe('made\n');
    } finally {
      tool.dispose();
    }
  });

  it.for(['host', 'session'] as const)('keeps the files include.path and includeIf name read-only, and what they include (%s backend)', async (backend) => {
    const { tool, run, read } = setUp(backend, {
      '.git/config': '[include]\n\tpath = ../.gitconfig\n[includeIf "onbranch:feature/**"]\n\tpath = ../conf/branch.gitconfig\n',
      '.gitconfig': '[include]\n\tpath = conf/more.gitconfig\n',
      'conf/more.gitconfig': '[user]\n\tname = x\n',
    });
    try {
      const fsmonitor = '[core]\\n\\tfsmonitor = touch PWNED\\n';
      const text = await run(`printf '${fsmonitor}' >> .gitconfig; ${tamper('conf/more.gitconfig')}; printf '${fsmonitor}' > conf/branch.gitconfig; echo done`);
      expect(text).toContain('done');
      expect(read('.gitconfig')).toBe('[include]\n\tpath = conf/more.gitconfig\n');
      expect(read('conf/more.gitconfig')).toBe('[user]\n\tname = x\n');
      expect(read('conf/branch.gitconfig') ?? '').toBe('');
    } finally {
      tool.dispose();
    }
  });

  it.for(['host', 'session'] as const)(
    'keeps the fsmonitor, filter driver and alias scripts read-only, and a missing one uncreatable (%s backend)',
    async (backend) => {
      const { tool, run, read } = setUp(backend, {
        '.git/config': [
          '[core]\n\tfsmonitor = ./scripts/fsmonitor.sh\n',
          '[filter "crypt"]\n\tclean = ./bin/clean.sh %f\n\tsmudge = sh bin/smudge.sh\n\tprocess = "tools/filter process"\n',
          '[diff "pdf"]\n\ttextconv = ./tools/missing-textconv.sh\n',
          '[alias]\n\tship = "!./ship.sh --fast"\n',
        ].join(''),
        'scripts/fsmonitor.sh': 'original\n',
        'bin/clean.sh': 'original\n',
        'bin/smudge.sh': 'original\n',
        'tools/filter': 'original\n',
        'ship.sh': 'original\n',
      });
      try {
        const files = ['scripts/fsmonitor.sh', 'bin/clean.sh', 'bin/smudge.sh', 'tools/filter', 'ship.sh'];
        const text = await run(`${files.map(tamper).join('; ')}; echo evil > tools/missing-textconv.sh; echo done`);
        expect(text).toContain('done');
        for (const file of files) expect(read(file), file).toBe('original\n');
        expect(read('tools/missing-textconv.sh') ?? '').toBe('');
      } finally {
        tool.dispose();
      }
    },
  );

  it.for(['host', 'session'] as const)('refuses to run while a hooks folder the configuration names is a link (%s backend)', async (backend) => {
    const { root, tool, run } = setUp(
      backend,
      { '.git/config': '[core]\n\thooksPath = .husky\n', 'tools/hooks/pre-commit': 'original\n' },
      { '.husky': 'tools/hooks' },
    );
    try {
      const text = await run('rm .husky; mkdir .husky; echo evil > .husky/pre-commit');
      expect(text).toMatch(/^Shell commands cannot run: '\.husky' is a symbolic link, and the repository configuration \(core\.hookspath in /);
      expect(fs.readlinkSync(path.join(root, '.husky'))).toBe('tools/hooks');
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!hasGit)('gitConfigReferences', () => {
  it('finds what a worktree file, its common configuration and linked hooks lead to, and leaves plain words and variables alone', () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, 'main', '.git', 'worktrees', 'w', 'x'), { recursive: true });
    fs.mkdirSync(path.join(root, 'main', '.git', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(root, 'w'));
    fs.writeFileSync(path.join(root, 'w', '.git'), `gitdir: ../main/.git/worktrees/w\n`);
    fs.writeFileSync(path.join(root, 'main', '.git', 'worktrees', 'w', 'commondir'), '../..\n');
    fs.writeFileSync(
      path.join(root, 'main', '.git', 'config'),
      '[filter "lfs"]\n\tprocess = git-lfs filter-process\n[alias]\n\tco = "!f() { git checkout $1; }; f"\n[credential]\n\thelper = ~/bin/helper\n',
    );
    fs.symlinkSync('../../w/hook.sh', path.join(root, 'main', '.git', 'hooks', 'pre-commit'));
    const found = gitConfigReferences(path.join(root, 'w', '.git')).map((reference) => reference.path);
    expect(found).toEqual([path.join(os.homedir(), 'bin', 'helper'), path.join(root, 'main', 'w', 'hook.sh')]);
  });
});

// Found by the twelfth pass's re-check: husky 9's `.husky/_` stubs run `.husky/<hook>`; a hook that runs a script of
// the work tree; `core.fsmonitor = "sh tools/fsmon.sh"` with the script missing; the user's own `~/.gitconfig`.
describe.skipIf(!hasGit)('gitConfigReferences, what hooks and settings run', () => {
  it("finds husky 9's hook folder, the scripts hooks run by path, and an interpreter's missing script", () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(root, '.husky', '_'), { recursive: true });
    fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(root, '.husky', '_', 'pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n');
    fs.writeFileSync(path.join(root, '.husky', 'pre-commit'), 'exec sh ./scripts/pre-commit.sh\nnpm test\n');
    fs.writeFileSync(path.join(root, 'scripts', 'pre-commit.sh'), 'echo ok\n');
    fs.writeFileSync(
      path.join(root, '.git', 'config'),
      '[core]\n\thooksPath = .husky/_\n\tfsmonitor = sh tools/fsmon.sh\n[alias]\n\tlg = !git log origin/main\n',
    );
    const found = gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path);
    expect(found).toEqual(
      expect.arrayContaining([
        path.join(root, '.husky', '_'),
        path.join(root, '.husky'),
        path.join(root, 'scripts', 'pre-commit.sh'),
        path.join(root, 'tools', 'fsmon.sh'),
      ]),
    );
    // Over-approximated on purpose: any word with a `/` may be a script (`git log origin/main` too).
    expect(found).toContain(path.join(root, 'origin', 'main'));
  });

  // An independent review: wrappers, assignments, keywords and `cd` hid the scripts a hook ran from a reading by
  // position, and a hook kept in the work tree and linked from the hooks folder was not read at all.
  it.for([
    ['env FOO=1 scripts/x.sh', 'scripts/x.sh'],
    ['FOO=1 scripts/x.sh', 'scripts/x.sh'],
    ['if true; then scripts/x.sh; fi', 'scripts/x.sh'],
    ['if ! scripts/x.sh; then exit 1; fi', 'scripts/x.sh'],
    ['command scripts/x.sh', 'scripts/x.sh'],
    ['timeout 20 scripts/x.sh', 'scripts/x.sh'],
    ['nice -n 5 scripts/x.sh', 'scripts/x.sh'],
    ['time scripts/x.sh', 'scripts/x.sh'],
    ['(exec -a x scripts/x.sh)', 'scripts/x.sh'],
    ['echo | xargs scripts/x.sh', 'scripts/x.sh'],
    ['flock /tmp/l scripts/x.sh', 'scripts/x.sh'],
    ['cd tools && ./x.sh', 'tools/x.sh'],
    ['sh -c "cd tools/sub && ./x.sh"', 'tools/sub/x.sh'],
    ['sh hook.sh', 'hook.sh'],
    ['node check.mjs --fix', 'check.mjs'],
    ['sh -e lint.sh', 'lint.sh'],
    ['python3 -u tidy.py', 'tidy.py'],
    ['deno run gen.ts', 'gen.ts'],
    ["cat <<MSG\nDon't commit secrets.\nMSG\necho 'step #1'; sh ./scripts/check.sh", 'scripts/check.sh'],
  ] as const)('finds what `%s` runs, however it is wrapped', ([line, runs]) => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n# not: ./commented-out.sh\n${line}\n`);
    const found = gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path);
    expect(found).toContain(path.join(root, runs));
    expect(found).not.toContain(path.join(root, 'commented-out.sh'));
  });

  // The third review: paths a hook finds beside itself, and words as the shell joins them.
  it.for([
    ['sh "$(dirname "$0")/../../sa/a.sh"', 'sa/a.sh'],
    ['node -e \'require("../../sb/b")\'', 'sb/b'],
    ['sh ./s"c/c.sh"', 'sc/c.sh'],
    ['sh ./se/\\\ne.sh', 'se/e.sh'],
  ] as const)("finds what `%s` runs, from the hook's folder or as the shell joins its words", ([line, runs]) => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${line}\n`);
    expect(gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path)).toContain(path.join(root, runs));
  });

  it('leaves alone the folders a hook names (a program runs from PATH, not the work tree; a folder runs nothing of its own)', () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    for (const dir of ['test', 'src', 'docs', 'scripts', 'tests', 'frontend']) fs.mkdirSync(path.join(root, dir));
    fs.writeFileSync(path.join(root, 'scripts', 'check.sh'), '');
    fs.writeFileSync(
      path.join(root, '.git', 'hooks', 'pre-commit'),
      '#!/bin/sh\nnpm test\nnpx eslint src\ngit diff docs\nblack --check src/ tests/ missing/\ncd frontend && npm test\nsh scripts/check.sh\n',
    );
    const found = gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path);
    for (const dir of ['test', 'src', 'docs', 'tests', 'missing', 'frontend', 'frontend/test']) expect(found, dir).not.toContain(path.join(root, dir));
    expect(found).toContain(path.join(root, 'scripts', 'check.sh'));
  });

  it.for([
    ['submodule "sub"', 'update = !sh ../sd/sub-update.sh', 'sd/sub-update.sh'],
    ['imap', 'tunnel = ./tools/tunnel.sh', 'tools/tunnel.sh'],
    ['instaweb', 'httpd = ./tools/httpd', 'tools/httpd'],
    ['sendemail "work"', 'smtpServer = ./tools/send.sh', 'tools/send.sh'],
  ] as const)('finds the program [%s] %s runs', ([section, setting, runs]) => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), `[${section}]\n\t${setting}\n`);
    const found = gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path);
    expect(found.some((file) => file === path.join(root, runs) || file === path.resolve(root, '..', runs) || file.endsWith(runs))).toBe(true);
  });

  it('reads a hook that is a link to a file of the work tree', () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(root, 'hooksrc'));
    fs.writeFileSync(path.join(root, 'hooksrc', 'pre-commit'), './scripts/x.sh\n');
    fs.symlinkSync('../../hooksrc/pre-commit', path.join(root, '.git', 'hooks', 'pre-commit'));
    const found = gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path);
    expect(found).toEqual(expect.arrayContaining([path.join(root, 'hooksrc', 'pre-commit'), path.join(root, 'scripts', 'x.sh')]));
  });

  // An independent review: a command made a nested repository whose `core.hooksPath` (or `include.path`) named a
  // folder outside the workspace; the host read the files there as hooks and made their words placeholders the command
  // could list — a private key's lines came back as folder names.
  it('reads nothing outside what `mayRead` allows for a repository a command may have made', () => {
    const root = path.join(base, `refs${++made}`);
    const outside = path.join(base, `outside${made}`);
    fs.mkdirSync(path.join(outside, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'hooks', 'id_key'), 'AAAA/SECRET/LINE\n');
    fs.writeFileSync(path.join(outside, 'more.gitconfig'), '[core]\n\tfsmonitor = ./LEAKED/x\n');
    fs.mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sub', '.git', 'config'), `[core]\n\thooksPath = ${outside}/hooks\n[include]\n\tpath = ${outside}/more.gitconfig\n`);
    const inside = (file: string) => file.startsWith(`${root}/`);
    const found = gitConfigReferences(path.join(root, 'sub', '.git'), inside).map((reference) => reference.path);
    expect(found.filter((file) => file.includes('SECRET') || file.includes('LEAKED'))).toEqual([]);
    // Allowed to read (a repository the user made), the same configuration is read as git reads it.
    const all = gitConfigReferences(path.join(root, 'sub', '.git')).map((reference) => reference.path);
    expect(all).toEqual(expect.arrayContaining([path.join(root, 'sub', 'AAAA', 'SECRET', 'LINE'), path.join(root, 'sub', 'LEAKED', 'x')]));
  });

  // The review: the user's own `core.hooksPath = .githooks` is relative, so in a repository a command made it is a
  // folder the command controls — and its hooks were read wherever they led.
  it("reads a repository's hooks the user's configuration places in the workspace only as `mayRead` allows", () => {
    const root = path.join(base, `refs${++made}`);
    const secret = path.join(base, `secret${made}.txt`);
    fs.writeFileSync(secret, 'wJalr/SECRET/KEY\n');
    fs.mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sub', '.git', 'config'), '');
    fs.mkdirSync(path.join(root, 'sub', '.githooks'));
    fs.symlinkSync(secret, path.join(root, 'sub', '.githooks', 'pre-commit'));
    const global = path.join(root, 'global.gitconfig');
    fs.writeFileSync(global, '[core]\n\thooksPath = .githooks\n');
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      const inside = (file: string) => file.startsWith(`${root}/`);
      const found = gitConfigReferences(path.join(root, 'sub', '.git'), inside, inside).map((reference) => reference.path);
      expect(found.filter((file) => file.includes('SECRET'))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  });

  it('refuses a hook too large to be read for the scripts it runs', () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `${'# padding\n'.repeat(7000)}./scripts/x.sh\n`);
    expect(() => gitConfigReferences(path.join(root, '.git'))).toThrow(/the hook '.*pre-commit' of the repository at .* is larger than 64 KiB/);
  });

  it("reads the user's own configuration too", () => {
    const root = path.join(base, `refs${++made}`);
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '');
    const global = path.join(root, 'global.gitconfig');
    fs.writeFileSync(global, '[core]\n\thooksPath = .githooks\n');
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      expect(gitConfigReferences(path.join(root, '.git')).map((reference) => reference.path)).toContain(path.join(root, '.githooks'));
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  });
});

// Found by a thirteenth pass: what a command writes where the host reads while it plans the next sandbox — a nested
// repository's `commondir`, `config`, `.git` file or hooks — is read on the host's event loop, with every other
// command paused. A FIFO there hung the host for good, holding the hosts' turn; a `config` that included itself a
// dozen times had it follow 10^12 includes until its heap ran out. Every such read is of a plain, bounded file, and
// each configuration file is read once.
describe.skipIf(!support.available || !hasGit)('what a command leaves where the host reads while it plans', () => {
  // Every place the host reads while it plans, as a command could leave it: each role (relative to a nested `.git`)
  // crossed with each kind of thing that is not a small plain file.
  const ROLES = ['commondir', 'config', 'config.worktree', 'hooks/pre-commit', 'included', 'gitdir-file/commondir'] as const;
  const KINDS = {
    fifo: (file: string) => spawnSync('mkfifo', [file]).status === 0,
    device: (file: string) => (fs.symlinkSync('/dev/zero', file), true),
    'link to a FIFO outside': (file: string) => {
      const outside = path.join(base, `fifo-${made}-${file.replace(/\//g, '_')}`);
      return spawnSync('mkfifo', [outside]).status === 0 && (fs.symlinkSync(outside, file), true);
    },
    'file past the bound': (file: string) => (fs.writeFileSync(file, `${'#'.repeat(1024)}\n`.repeat(2048)), true),
  } as const;
  // A hook past its bound refuses the command instead (a hook unread could run a script no one held; tested above).
  const rolesOf = (kind: keyof typeof KINDS) => ROLES.filter((role) => !(kind === 'file past the bound' && role === 'hooks/pre-commit'));
  const cases = (['host', 'session'] as const).flatMap((backend) => Object.keys(KINDS).map((kind) => [backend, kind] as [typeof backend, keyof typeof KINDS]));
  it.for(cases)('never waits on it, or reads past a bound (%s backend, %s)', async ([backend, kind]) => {
    const { root, tool, run } = setUp(backend, {});
    try {
      rolesOf(kind).forEach((role, index) => {
        const dotGit = path.join(root, `r${index}`, '.git');
        fs.mkdirSync(path.join(dotGit, 'hooks'), { recursive: true });
        if (role === 'included') fs.writeFileSync(path.join(dotGit, 'config'), '[include]\n\tpath = included\n');
        if (role === 'gitdir-file/commondir') {
          fs.rmSync(dotGit, { recursive: true });
          fs.mkdirSync(path.join(root, `r${index}`, 'store', 'hooks'), { recursive: true });
          fs.writeFileSync(dotGit, 'gitdir: store\n');
        }
        const target = role === 'gitdir-file/commondir' ? path.join(root, `r${index}`, 'store', 'commondir') : path.join(dotGit, role);
        expect(KINDS[kind](target)).toBe(true);
      });
      const started = performance.now();
      expect(await run('echo still-runs')).toContain('still-runs');
      expect(await run('echo still-runs')).toContain('still-runs');
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      tool.dispose();
    }
  });

  it.for(['host', 'session'] as const)('reads a configuration that includes itself, or includes in a ring, once each (%s backend)', async (backend) => {
    const { tool, run } = setUp(backend, {});
    try {
      const includes = Array.from({ length: 12 }, () => '[include]\\n\\tpath = config\\n').join('');
      const ring = '[include]\\n\\tpath = b\\n[core]\\n\\thooksPath = hooks-a\\n';
      expect(
        await run(
          `mkdir -p sub/.git deep/.git && printf '${includes}' > sub/.git/config && printf '${ring}' > deep/.git/config && printf '[include]\\n\\tpath = config\\n' > deep/.git/b && echo made`,
        ),
      ).toContain('made');
      const started = performance.now();
      expect(await run('echo still-runs')).toContain('still-runs');
      expect(performance.now() - started).toBeLessThan(15_000);
      // The ring was read: the hooks folder its first file names is protected now (in a session, from its next shell).
      if (backend === 'host')
        expect(await run('mkdir -p deep/hooks-a 2>&1; echo x > deep/hooks-a/pre-commit 2>&1 || echo refused')).toMatch(/refused|Read-only|read-only/);
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!hasGit)('gitConfigReferences, paths spelled as git expands them', () => {
  // Found by a thirteenth pass: `core.hooksPath` spelled through a link outside the workspace, or as `~user/`, named
  // the workspace's hooks folder, which stayed writable, and the host's next commit ran what a command put there.
  it("names the workspace's folder however the setting spells it: through an outside link, or from ~user", async () => {
    const { physicalPath } = await import('./git-referenced-paths.js');
    const root = fs.mkdtempSync(path.join(base, 'spelled-'));
    const outside = fs.mkdtempSync(path.join(base, 'outside-'));
    fs.mkdirSync(path.join(root, 'hooks'));
    fs.symlinkSync(root, path.join(outside, 'ws-link'));
    fs.mkdirSync(path.join(outside, 'sub'));
    fs.symlinkSync('../ws-link/hooks', path.join(outside, 'sub', 'nested-link'));
    expect(physicalPath(path.join(outside, 'ws-link', 'hooks', 'pre-commit'), root)).toEqual({ path: path.join(root, 'hooks', 'pre-commit') });
    expect(physicalPath(path.join(outside, 'sub', 'nested-link', 'missing', 'x'), root)).toEqual({ path: path.join(root, 'hooks', 'missing', 'x') });
    expect(physicalPath(path.join(outside, 'ws-link', 'hooks', '..', 'x'), root)).toEqual({ path: path.join(root, 'x') });
    // A link inside the workspace on the way: a command could replace it, so it is named.
    fs.symlinkSync('hooks', path.join(root, 'h'));
    expect(physicalPath(path.join(outside, 'ws-link', 'h', 'pre-commit'), root)).toEqual({ path: path.join(root, 'h'), link: path.join(root, 'h') });

    fs.mkdirSync(path.join(root, '.git'));
    const user = os.userInfo();
    fs.writeFileSync(path.join(root, '.git', 'config'), `[core]\n\thooksPath = ~${user.username}/${path.relative(user.homedir, root)}/hooks\n`);
    const spelledFromHome = !path.relative(user.homedir, root).startsWith('..');
    const hooks = gitConfigReferences(path.join(root, '.git')).filter((reference) => reference.setting.startsWith('core.hookspath'));
    if (spelledFromHome) expect(hooks.map((reference) => reference.path)).toEqual([path.join(root, 'hooks')]);
    else expect(hooks.map((reference) => reference.path)).toEqual([path.join(user.homedir, path.relative(user.homedir, root), 'hooks')]);
  });

  // The kernel is the oracle: every spelling through links outside the workspace (chains of them, relative and absolute,
  // `..` after a link, `.`) resolves where `realpath` says, and one through a link inside the workspace is named.
  it('resolves generated spellings as the kernel does', async () => {
    const { physicalPath } = await import('./git-referenced-paths.js');
    const { spelledFrom } = await import('./git-config-references.js');
    const root = fs.realpathSync(fs.mkdtempSync(path.join(base, 'kernel-')));
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(base, 'links-')));
    fs.mkdirSync(path.join(root, 'hooks', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(outside, 'sub'));
    fs.symlinkSync(root, path.join(outside, 'a')); // absolute
    fs.symlinkSync('a', path.join(outside, 'b')); // relative, to a link
    fs.symlinkSync('../b/hooks', path.join(outside, 'sub', 'c')); // `..` then a link
    fs.symlinkSync(path.join(outside, 'sub', 'c', 'deep'), path.join(outside, 'd')); // through a chain
    fs.symlinkSync('hooks', path.join(root, 'inside'));
    const starts = ['a', 'b', 'sub/c', 'd', 'sub/../a', 'b/./hooks'];
    const tails = ['', 'hooks', 'hooks/deep', '..', 'hooks/..', 'hooks/deep/../deep', 'missing/x', 'inside', 'inside/deep'];
    // Every spelling of up to three tails (4,920): a sample of 300 missed `b/./hooks` + `hooks/..` + `..` + `inside`,
    // a `..` after a link further up, which once read lexically.
    const spellings: [string, string[]][] = [];
    const grow = (rest: string[]) => {
      for (const start of starts) spellings.push([start, rest]);
      if (rest.length < 3) for (const tail of tails) grow([...rest, tail]);
    };
    grow([]);
    for (const [start, rest] of spellings) {
      const raw = [outside, start, ...rest].filter((part) => part !== '').join('/');
      // As a configuration names it relative to a folder: `..` after a link taken out as the kernel does first.
      const relative = [start, ...rest].filter((part) => part !== '').join('/');
      const viaSpelling = physicalPath(spelledFrom(outside, relative), root);
      const found = physicalPath(raw, root);
      expect(viaSpelling.link === undefined).toBe(found.link === undefined);
      if (found.link === undefined) expect(viaSpelling.path).toBe(found.path);
      if (found.link !== undefined) {
        expect(found.link).toBe(path.join(root, 'inside'));
        continue;
      }
      let real: string | undefined;
      try {
        real = fs.realpathSync.native(raw); // realpath(3): `..` after a link as the kernel takes it (Node's own is lexical)
      } catch {
        real = undefined;
      }
      if (real !== undefined) expect(found.path).toBe(real);
      else expect(found.path.startsWith('/')).toBe(true);
    }
  });

  it.for(['host', 'session'] as const)('keeps a hooks folder named through an outside link read-only (%s backend)', async (backend) => {
    const { root, tool, run, read } = setUp(backend, { '.git/hooks/.keep': '', 'hooks-a/pre-commit': '#!/bin/sh\necho ok\n' });
    const outside = fs.mkdtempSync(path.join(base, 'link-'));
    fs.symlinkSync(root, path.join(outside, 'ws-link'));
    fs.writeFileSync(path.join(root, '.git', 'config'), `[core]\n\thooksPath = ${path.join(outside, 'ws-link', 'hooks-a')}\n`);
    try {
      await run(tamper('hooks-a/pre-commit'));
      expect(read('hooks-a/pre-commit')).toBe('#!/bin/sh\necho ok\n');
    } finally {
      tool.dispose();
    }
  });
});

// Found by a fourteenth pass: a nested repository whose `.git` is a file (a `.bare` layout, `--separate-git-dir`)
// had its `.git` file read-only but the folder it names writable, and the user's next commit there ran a hook a
// command wrote into it.
describe.skipIf(!support.available || !hasGit)('a nested repository whose .git is a file', () => {
  it.for(['host', 'session'] as const)('keeps the folder its gitdir names read-only, and a worktree’s common one (%s backend)', async (backend) => {
    const { root, tool, run, read } = setUp(backend, {
      'projects/foo/.bare/HEAD': 'ref: refs/heads/main\n',
      'projects/foo/.bare/config': '[core]\n\tbare = true\n',
      'projects/foo/.bare/hooks/pre-commit': '#!/bin/sh\necho ok\n',
      'projects/foo/.git': 'gitdir: ./.bare\n',
      'main/.git/HEAD': 'ref: refs/heads/main\n',
      'main/.git/worktrees/wt/commondir': '../..\n',
      'main/.git/worktrees/wt/HEAD': 'ref: refs/heads/wt\n',
      'elsewhere/wt/.git': `gitdir: ../../main/.git/worktrees/wt\n`,
      'main/.git/hooks/post-checkout': '#!/bin/sh\necho ok\n',
    });
    try {
      await run(tamper('projects/foo/.bare/hooks/pre-commit'));
      await run(tamper('projects/foo/.bare/config'));
      await run(tamper('main/.git/hooks/post-checkout'));
      expect(read('projects/foo/.bare/hooks/pre-commit')).toBe('#!/bin/sh\necho ok\n');
      expect(read('projects/foo/.bare/config')).toBe('[core]\n\tbare = true\n');
      expect(read('main/.git/hooks/post-checkout')).toBe('#!/bin/sh\necho ok\n');
      expect(fs.existsSync(path.join(root, 'projects/foo/.bare-moved'))).toBe(false);
    } finally {
      tool.dispose();
    }
  });
});

// Found by a fourteenth pass: one configuration file held an alias of 90,000 `~name/x` words, and the host asked the
// user database for each while every other command waited (204 s). The work a configuration may cause is bounded.
describe.skipIf(!support.available || !hasGit)("the work a repository's configuration may cause", () => {
  it.for([
    ['other users’ homes', '~zzuser%d/x', 500, "other users' homes (~name/) to look up"],
    ['words', './w%d', 30_000, 'more than 20000 words'],
  ] as const)('refuses the command past a bound of %s, promptly', async ([, word, count, why]) => {
    const { tool, run } = setUp('host', {});
    try {
      const alias = `{ printf '[alias]\\n\\tx = !sh'; for i in $(seq ${count}); do printf ' ${word}' $i; done; printf '\\n'; } >> sub/.git/config`;
      expect(await run(`mkdir -p sub/.git && echo "ref: refs/heads/main" > sub/.git/HEAD && ${alias} && echo made`)).toContain('made');
      const started = performance.now();
      const next = await run('echo next');
      expect(next).toMatch(/too many to check for what it has git run/);
      expect(next).toContain(why);
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available || !hasGit)('a hooks folder of very many entries', () => {
  it('refuses the command rather than list and read them all, or check only some', async () => {
    const { tool, run } = setUp('host', {});
    try {
      expect(await run('mkdir -p sub/.git/hooks && cd sub/.git/hooks && for i in $(seq 300); do echo "exec sh ./s$i.sh" > h$i; done && echo made')).toContain(
        'made',
      );
      expect(await run('echo next')).toMatch(/a hooks folder \(.*sub\/\.git\/hooks\) of more than 256 entries/);
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available || !hasGit)('a protected path deeper than the system can name', () => {
  it('refuses the command rather than leave it writable', async () => {
    const { root, tool, run } = setUp('host', {});
    try {
      const deep = `for i in $(seq 10 34); do d="$i$(printf 'd%.0s' $(seq 198))"; mkdir "$d" && cd "$d" || exit 1; done; mkdir -p .git/hooks && echo made`;
      expect(await run(deep)).toContain('made');
      expect(await run('echo next')).toMatch(/deeper than the longest path the system can name/);
    } finally {
      tool.dispose();
      // Node's rm names every path whole; rm(1) goes down folder by folder.
      for (const entry of fs.readdirSync(root)) if (entry.startsWith('10')) spawnSync('rm', ['-rf', path.join(root, entry)]);
    }
  });
});
