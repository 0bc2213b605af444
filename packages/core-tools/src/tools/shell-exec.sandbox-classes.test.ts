// Classes of escape found by an independent pass with the judge switched off, each checked as a class:
// the kernel's settings under /proc, protected paths that do not exist yet, a scan a command can
// outrun (flooding, renaming between calls), denied paths inside protected ones, readable paths
// that would show the host. The sandbox alone must hold.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { controlGroupSupport, pauseCommands, probeSandbox } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { ShellTool, type ShellJobStarted, type ShellResult } from './shell-exec.js';
import { WorkspacePolicy, type WorkspaceConfig } from '../workspace/workspace-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';
import { HIDDEN_SCAN_ENTRIES, hiddenScanEntriesForTests } from '../shell/sandbox-view.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-classes-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true, maxRetries: 10 }));
let made = 0;

/** A fresh workspace with `files`, and a judge-less shell on it. */
function setUp(files: Record<string, string>, config: Partial<WorkspaceConfig> = {}, shell: Partial<ShellConfig> = {}) {
  const root = path.join(base, `ws${++made}`);
  fs.mkdirSync(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  const tool = new ShellTool({
    workspace: new WorkspacePolicy({ root, ...config }),
    shell: { backend: 'host', unjudged: true, timeoutMs: 20_000, ...shell } as ShellConfig,
  });
  const run = async (command: string, background = false): Promise<{ text: string; result?: ShellResult }> => {
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      const result = (await runWithToolContext(context, () => tool.shellExec(command, 20, background))) as ShellResult;
      return { text: `${result.stdout}\n${result.stderr}`, result };
    } catch (error) {
      return { text: (error as Error).message };
    }
  };
  return { root, tool, run };
}

/** A folder beside the workspaces holding a marker (`secret.txt`) no command may read, and where none may write. */
function outsideWithSecret(prefix: string, secret: string): string {
  const outside = fs.mkdtempSync(path.join(base, prefix));
  fs.writeFileSync(path.join(outside, 'secret.txt'), secret);
  return outside;
}

describe.skipIf(!support.available)('classes of escape the sandbox holds without the judge', () => {
  it.for(['host', 'session'] as const)('runs ordinary commands inside, as a control (%s backend)', async (backend) => {
    const { tool, run } = setUp({ 'ok.txt': 'inside\n' }, {}, { backend });
    try {
      const { text, result } = await run('cat ok.txt && echo made > new.txt && cat new.txt');
      expect(text).toContain('inside\nmade');
      expect(result?.ranIn).toBe('sandbox');
    } finally {
      tool.dispose();
    }
  });

  it("leaves the kernel's settings read-only and its views of the host empty, though the command is root to the kernel", async () => {
    const { tool, run } = setUp({});
    const corePattern = fs.readFileSync('/proc/sys/kernel/core_pattern', 'utf8');
    try {
      // Writability is tested without writing anything new: the same value back, and `find -writable` (access(2):
      // EROFS) over everything /proc shows that is not a link or a device (the emptied files are /dev/null).
      // What only root may read of the host, by the kernel's own listing, reads as empty.
      const rootOnly = fs
        .readdirSync('/proc')
        .filter((name) => !/^\d+$/.test(name))
        .map((name) => `/proc/${name}`)
        .filter((entry) => {
          const status = fs.lstatSync(entry);
          return status.isFile() && (status.mode & 0o004) === 0;
        });
      const { text } = await run(
        [
          'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo WROTE-core_pattern',
          'find /proc -xdev -maxdepth 5 -writable ! -type l 2>/dev/null | while read -r f; do [ -c "$f" ] || echo "WRITABLE-$f"; done',
          `for f in ${[...rootOnly, '/proc/kcore', '/proc/kallsyms', '/proc/keys', '/proc/key-users'].join(' ')}; do [ "$(timeout 1 head -c 1 $f 2>/dev/null | wc -c)" = 1 ] && echo READ-$f; done`,
          'echo checked',
        ].join('; '),
      );
      expect(rootOnly.length).toBeGreaterThan(0);
      expect(text).toContain('checked');
      expect(text).not.toMatch(/WROTE-|WRITABLE-|READ-/);
      expect(fs.readFileSync('/proc/sys/kernel/core_pattern', 'utf8')).toBe(corePattern);
    } finally {
      tool.dispose();
    }
  });

  it.for(['host', 'session'] as const)(
    'lets no command create a protected path that is missing, in the foreground or in the background (%s backend)',
    async (backend) => {
      const { root, tool, run } = setUp({ 'ok.txt': 'x' }, {}, { backend });
      try {
        const plant =
          'git init -q . 2>&1; mkdir .git; echo "[core] fsmonitor = touch PWNED" > .git/config; echo x > .env; echo {} > toolwright.config.json; mkdir .toolwright/x';
        await run(`${plant}; echo done`);
        await run(`(sleep 1; ${plant}) &`);
        if (backend === 'host') await run(`sleep 1; ${plant}`, true);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        // Placeholders are empty while held, and gone once every command has ended.
        for (const name of ['.git', '.env', 'toolwright.config.json', '.toolwright']) {
          const entry = path.join(root, name);
          if (!fs.existsSync(entry)) continue;
          const stat = fs.lstatSync(entry);
          expect(stat.isDirectory() ? fs.readdirSync(entry) : fs.readFileSync(entry, 'utf8'), name).toHaveLength(0);
        }
      } finally {
        tool.dispose();
      }
      // Let go of once the session's last process has ended: within seconds, later on a loaded machine (a CI run
      // under load still had them after a fixed 500 ms).
      await vi.waitFor(() => expect(fs.readdirSync(root).sort()).toEqual(['ok.txt']), { timeout: 30_000, interval: 100 });
      expect(fs.existsSync(path.join(root, 'PWNED'))).toBe(false);
    },
  );

  it('keeps the protected paths at the root read-only and the denied paths hidden however many entries come first', async () => {
    const { root, tool, run } = setUp({ '.git/config': 'original\n', '.env': 'KEY=1\n', 'secrets/key.txt': 'DENIED-FLOOD' }, { deniedPaths: ['secrets/**'] });
    try {
      // Names that sort before '.': a scan that stopped after so many entries at the root never reached .git or .env.
      for (let i = 0; i < 26_000; i++) fs.closeSync(fs.openSync(path.join(root, `-${String(i).padStart(5, '0')}`), 'w'));
      const { text } = await run('cat secrets/key.txt; echo x >> .git/config; echo y >> .env; echo done');
      expect(text).toContain('done');
      expect(text).not.toContain('DENIED-FLOOD');
      expect(fs.readFileSync(path.join(root, '.git', 'config'), 'utf8')).toBe('original\n');
      expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('KEY=1\n');
    } finally {
      tool.dispose();
    }
  });

  it('refuses to run, saying why, when the deny rules need a search of more of the workspace than it can make', async () => {
    expect(HIDDEN_SCAN_ENTRIES).toBe(200_000);
    // The bound lowered to 2,000: making 200,000 files took 15 s of a quiet machine's disk and 74 s of a loaded one's.
    hiddenScanEntriesForTests(2_000);
    const { root, tool, run } = setUp({ 'a/b.key': 'DENIED' }, { deniedPaths: ['**/*.key'] });
    try {
      fs.mkdirSync(path.join(root, 'many'));
      const { text: under } = await run('cat a/b.key; echo ran');
      expect(under).toContain('ran');
      expect(under).not.toContain('DENIED');
      for (let i = 0; i < 2_000; i++) fs.closeSync(fs.openSync(path.join(root, 'many', `f${i}`), 'w'));
      const { text } = await run('cat a/b.key');
      expect(text).toMatch(
        /^Shell commands cannot run: to hide every path the deny rules \(\*\*\/\*\.key\) name, the sandbox must search more of the workspace than 2000 entries/,
      );
    } finally {
      hiddenScanEntriesForTests(undefined);
      tool.dispose();
    }
  });

  it('covers what a command moved since the last one: folders on the way cannot be moved, and nothing is reused from an earlier look', async () => {
    const { root, tool, run } = setUp(
      { 'pkg/.git/config': 'original\n', 'conf/prod.key': 'DENIED-MOVED', 'top/conf/a.key': 'DENIED-MOVED' },
      { deniedPaths: ['**/*.key'] },
    );
    try {
      await run('cat conf/prod.key; echo x >> pkg/.git/config');
      const moved = await run('mv pkg pkg2; mv conf conf2; mv top/conf top/conf2; mv top top2; echo moved');
      expect(moved.text).toContain('Device or resource busy');
      const { text } = await run(
        'cat conf2/prod.key conf/prod.key top2/conf/a.key top/conf2/a.key; echo x >> pkg2/.git/config; echo x >> pkg/.git/config; echo done',
      );
      expect(text).toContain('done');
      expect(text).not.toContain('DENIED-MOVED');
      expect(fs.readFileSync(path.join(root, 'pkg', '.git', 'config'), 'utf8')).toBe('original\n');
    } finally {
      tool.dispose();
    }
  });

  it('hides a denied path inside a protected one', async () => {
    const { tool, run } = setUp({ 'keys/a.pem': 'DENIED-PEM', 'keys/readme': 'visible' }, { protectedPaths: ['keys'], deniedPaths: ['keys/*.pem'] });
    try {
      const { text } = await run('cat keys/readme keys/a.pem');
      expect(text).toContain('visible');
      expect(text).not.toContain('DENIED-PEM');
    } finally {
      tool.dispose();
    }
  });

  it('hides and protects names beginning with two dots like any other', async () => {
    const { root, tool, run } = setUp(
      { '..private/k': 'DENIED-DOTS', '..git/config': 'original\n' },
      { deniedPaths: ['..private/**'], protectedPaths: ['..git'] },
    );
    try {
      const { text } = await run('cat ..private/k; echo x >> ..git/config; echo done');
      expect(text).toContain('done');
      expect(text).not.toContain('DENIED-DOTS');
      expect(fs.readFileSync(path.join(root, '..git', 'config'), 'utf8')).toBe('original\n');
    } finally {
      tool.dispose();
    }
  });

  it("refuses readable paths that would show the host's own /etc, /proc or /tmp, or a home", async () => {
    for (const readable of ['/etc', '/proc', '/tmp', '/', os.homedir(), '/var']) {
      const { tool, run } = setUp({}, {}, { readablePaths: [readable] });
      try {
        const { text } = await run('cat /etc/shadow; echo done');
        expect(text, readable).toMatch(/^Shell commands cannot run: the readable path/);
      } finally {
        tool.dispose();
      }
    }
  });

  it('refuses a readable path inside the workspace with a reason, not a crash', async () => {
    const inside = path.join(base, `ws${made + 1}`, 'tools');
    const { tool, run } = setUp({ 'tools/x': 'x' }, {}, { readablePaths: [inside] });
    try {
      expect((await run('echo hi')).text).toBe(
        `Shell commands cannot run: the readable path '${inside}' cannot be shown in the sandbox: it is, holds or lies in the workspace.`,
      );
    } finally {
      tool.dispose();
    }
  });

  it('reaches the workspace through the spelling it was configured with', async () => {
    const real = path.join(base, `real${++made}`);
    fs.mkdirSync(real);
    fs.writeFileSync(path.join(real, 'f.txt'), 'through the link\n');
    const link = path.join(base, `link${made}`);
    fs.symlinkSync(real, link);
    const tool = new ShellTool({ workspace: new WorkspacePolicy({ root: link }), shell: { backend: 'host', unjudged: true } as ShellConfig });
    try {
      const context = toolContext({ toolName: 'shell_exec' });
      const result = (await runWithToolContext(context, () => tool.shellExec(`cat ${link}/f.txt`))) as ShellResult;
      expect(result.stdout).toBe('through the link\n');
    } finally {
      tool.dispose();
    }
  });
});

describe('resource limits given to the library', () => {
  it('are checked when the shell is made, naming the limit', () => {
    expect(
      () => new ShellTool({ workspace: new WorkspacePolicy({ root: base }), shell: { backend: 'host', limits: { cpuSeconds: 0 } } as ShellConfig }),
    ).toThrow("shell.limits: the limit 'cpuSeconds' must be a whole number of at least 1, not 0");
  });
});

describe.skipIf(!support.available)('protected paths under overlapping calls, links, renames and other repository layouts', () => {
  // Two launches, each taking the hosts' turn: beside other test files' sandboxes each may wait up to 30 s for it.
  it('keeps a placeholder held while any command holds it, however calls overlap', { timeout: 150_000 }, async () => {
    const { root, tool, run } = setUp({ 'ok.txt': 'x' });
    try {
      await run('sleep 2', true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Starts while the background job holds the placeholders, and outlives it.
      const { text } = await run('sleep 3; mkdir -p .git/x 2>&1; echo "[core] fsmonitor = touch PWNED" > .git/config 2>&1; echo evil > .env 2>&1; echo done');
      expect(text).toContain('done');
      expect(fs.existsSync(path.join(root, '.git', 'config'))).toBe(false);
      expect(fs.existsSync(path.join(root, '.env')) ? fs.readFileSync(path.join(root, '.env'), 'utf8') : '').toBe('');
    } finally {
      tool.dispose();
    }
  });

  it('refuses to run while a protected path is a link, which a command could replace', async () => {
    const { root, tool, run } = setUp({ 'config/prod.env': 'KEY=1\n' });
    fs.symlinkSync('config/prod.env', path.join(root, '.env'));
    try {
      const { text } = await run('rm .env; echo evil > .env');
      expect(text).toMatch(/^Shell commands cannot run: the protected path '\.env' is a symbolic link/);
      expect(fs.readlinkSync(path.join(root, '.env'))).toBe('config/prod.env');
    } finally {
      tool.dispose();
    }
  });

  it('keeps a folder on the way to a covered path from being renamed away from its rule', async () => {
    const { root, tool, run } = setUp(
      { 'conf/prod.key': 'DENIED-RENAMED', 'config/deploy.json': '{}' },
      { deniedPaths: ['conf/*.key'], protectedPaths: ['config/deploy.json'] },
    );
    try {
      await run('mv conf conf2; mv config config2');
      const { text } = await run('cat conf2/prod.key conf/prod.key; echo evil > config2/deploy.json; echo evil > config/deploy.json; echo done');
      expect(text).toContain('done');
      expect(text).not.toContain('DENIED-RENAMED');
      expect(fs.readFileSync(path.join(root, 'config', 'deploy.json'), 'utf8')).toBe('{}');
    } finally {
      tool.dispose();
    }
  });

  it('lets no command make the root a repository by other means: a bare layout, or a .git file pointing inside', async () => {
    const bare = setUp({ 'ok.txt': 'x' });
    try {
      await bare.run(
        'mkdir -p objects refs/heads; echo "ref: refs/heads/main" > HEAD; printf "[core]\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = touch PWNED\\n" > config; echo done',
      );
      expect(fs.existsSync(path.join(bare.root, 'HEAD')) ? fs.readFileSync(path.join(bare.root, 'HEAD'), 'utf8') : '').toBe('');
    } finally {
      bare.tool.dispose();
    }
    const worktree = setUp({ '.git': 'gitdir: .bare\n', '.bare/config': '[core]\n' });
    try {
      await worktree.run('echo "[core] fsmonitor = touch PWNED" >> .bare/config; echo done');
      expect(fs.readFileSync(path.join(worktree.root, '.bare', 'config'), 'utf8')).toBe('[core]\n');
    } finally {
      worktree.tool.dispose();
    }
  });

  it('holds a configured protected path whose folder is missing at that folder', async () => {
    const { root, tool, run } = setUp({ 'ok.txt': 'x' }, { protectedPaths: ['.git', 'ci/hooks/pre'] });
    try {
      await run('mkdir -p ci/hooks; echo evil > ci/hooks/pre; echo done');
    } finally {
      tool.dispose();
    }
    expect(fs.existsSync(path.join(root, 'ci', 'hooks', 'pre'))).toBe(false);
  });

  it('plans the sandbox again when a session shell has ended, not with the plan it began with', async () => {
    const { root, tool, run } = setUp(
      { 'conf/prod.key': 'DENIED-SESSION', 'pkg/.git/config': 'original\n' },
      { deniedPaths: ['**/*.key'] },
      { backend: 'session' },
    );
    try {
      await run('true');
      await run('exit 0');
      const { text } = await run('cat conf/prod.key; echo x >> pkg/.git/config; echo done');
      expect(text).toContain('done');
      expect(text).not.toContain('DENIED-SESSION');
      expect(fs.readFileSync(path.join(root, 'pkg', '.git', 'config'), 'utf8')).toBe('original\n');
    } finally {
      tool.dispose();
    }
  });

  it('keeps a nested protected path found once read-only after a command fills the workspace past the search', async () => {
    const { root, tool, run } = setUp({ 'pkg/.git/config': 'original\n', 'ok.txt': 'x' });
    try {
      await run('true'); // the first look finds pkg/.git
      // Breadth-first and sorted, a folder of 21,000 names before `pkg` puts pkg/.git past the search's bound.
      fs.mkdirSync(path.join(root, 'aaa'));
      for (let i = 0; i < 21_000; i++) fs.closeSync(fs.openSync(path.join(root, 'aaa', `f${String(i).padStart(5, '0')}`), 'w'));
      const { text } = await run('echo x >> pkg/.git/config; echo done');
      expect(text).toContain('done');
      expect(fs.readFileSync(path.join(root, 'pkg', '.git', 'config'), 'utf8')).toBe('original\n');
    } finally {
      tool.dispose();
    }
  });

  it('refuses to run when a name that is not UTF-8 could hide a denied path from the search', async () => {
    const { root, tool, run } = setUp({ '\uFFFD/decoy.txt': 'x' }, { deniedPaths: ['**/*.key'] });
    const raw = Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff])]);
    fs.mkdirSync(raw);
    fs.writeFileSync(Buffer.concat([raw, Buffer.from('/prod.key')]), 'DENIED-BYTES');
    try {
      const { text } = await run(`cat $'\\xff'/prod.key`);
      expect(text).not.toContain('DENIED-BYTES');
      expect(text).toMatch(/^Shell commands cannot run: to hide every path the deny rules/);
    } finally {
      tool.dispose();
    }
  });
});

/** Swaps a folder holding covered paths (`xd`, with a denied `y.key` and a `.git`) at `x` for a link (`xl`) there for `seconds`, as fast as it can. */
const SWAPPER = (target: string, seconds: number) =>
  `python3 -c "
import os, time
os.makedirs('xd/.git', exist_ok=True); open('xd/y.key', 'w').write('k')
os.path.lexists('xl') or os.symlink('${target}', 'xl')
end = time.time() + ${seconds}
while time.time() < end:
  try:
    os.rename('xd', 'x'); time.sleep(0.0005); os.rename('x', 'xd')
    os.rename('xl', 'x'); time.sleep(0.0005); os.rename('x', 'xl')
  except OSError: pass
"`;

describe.skipIf(!support.available)('links on the way to what the sandbox mounts', () => {
  const spellings = (root: string, target: string) => ({ absolute: target, relative: path.relative(root, target) });

  it.for(['absolute', 'relative'] as const)(
    'forgets a nested protected path found once when a folder on its way becomes a %s link to a host folder',
    async (spelling) => {
      const outside = fs.mkdtempSync(path.join(base, 'project-'));
      fs.mkdirSync(path.join(outside, '.git'));
      const { root, tool, run } = setUp({});
      const link = spellings(root, outside)[spelling];
      try {
        await run('mkdir -p x/.git');
        await run('true'); // this look finds x/.git, and remembers it
        await run(`mv x xd && ln -s ${link} x`);
        const { text } = await run('echo escaped > x/written.txt; ls x/ .; echo done');
        expect(text).toContain('done');
        expect(fs.readdirSync(outside)).toEqual(['.git']);
      } finally {
        tool.dispose();
      }
    },
  );

  it.for(['absolute', 'relative'] as const)(
    'refuses when a folder on the way to a configured protected path is a %s link, and makes nothing where it leads',
    async (spelling) => {
      const outside = fs.mkdtempSync(path.join(base, 'elsewhere-'));
      const { root, tool, run } = setUp({}, { protectedPaths: ['config/deploy.json'] });
      const link = spellings(root, outside)[spelling];
      try {
        await run('true'); // config/ is held by a placeholder while any command runs (no command can make it a link), then removed
        for (let waited = 0; fs.existsSync(path.join(root, 'config')) && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
        // The workspace has the link of its own (a checkout, the user).
        fs.symlinkSync(link, path.join(root, 'config'));
        const { text } = await run('echo ran');
        expect(text).toMatch(/^Shell commands cannot run: 'config', on the way to the protected path 'config\/deploy\.json', is a symbolic link/);
        expect(fs.readdirSync(outside)).toEqual([]);
      } finally {
        tool.dispose();
      }
    },
  );
});

describe.skipIf(!support.available)('a session shell that ends while a command waits', () => {
  // A command queued behind one that ends the session shell (exit, a timeout) started it again from the plan the
  // session began with, unpaused and unchecked: a job had meanwhile swapped a folder that plan binds for a link.
  it.for(['exit 3', 'sleep 30'] as const)('starts it afresh from a new plan when the command before ends it with `%s`', async (ender) => {
    const outside = outsideWithSecret('outside-', 'OUTSIDE-SECRET');
    const { root, tool, run } = setUp({}, { deniedPaths: ['**/*.key'] }, { backend: 'session', timeoutMs: 2_000 });
    const name = path.basename(root);
    try {
      // The job's own sandbox was made before d/ existed, so it may rename d/ while the session's plan binds it.
      await run(`sleep 0.2; mkdir -p d/${name}; : > d/${name}/e.key; : > e.key; sleep 1.2; mv d d.real && ln -s .. d`, true);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await run('echo started')).text).toContain('started'); // the session's plan binds d and d/<name>
      for (let i = 0; i < 100 && !fs.lstatSync(path.join(root, 'd'), { throwIfNoEntry: false })?.isSymbolicLink(); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fs.lstatSync(path.join(root, 'd')).isSymbolicLink()).toBe(true);
      const [, probe] = await Promise.all([run(ender), run(`cat ${outside}/secret.txt; echo escaped > ${outside}/written.txt; echo probed`)]);
      expect(probe.text).toContain('probed');
      expect(probe.text).not.toContain('OUTSIDE-SECRET');
      expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('descriptors the host inherited', () => {
  // An editor, CI runner or service manager may leave a descriptor open without close-on-exec: it passed through
  // Node and bubblewrap, and a directory's reached the host's files through /proc/self/fd/N.
  it.for(['host', 'session'] as const)('reach no %s backend command', (backend) => {
    const outside = outsideWithSecret('inherited-', 'INHERITED-SECRET');
    const root = fs.mkdtempSync(path.join(base, 'ws-inherited-'));
    const dist = (pkg: string) => JSON.stringify(path.resolve(import.meta.dirname, `../../../${pkg}/dist/index.js`));
    const script = `
      const { ShellTool, WorkspacePolicy } = await import(${dist('core-tools')});
      const { runWithToolContext } = await import(${dist('tool')});
      const tool = new ShellTool({ workspace: new WorkspacePolicy({ root: ${JSON.stringify(root)} }), shell: { backend: '${backend}', unjudged: true } });
      const context = { callId: 'c', toolName: 'shell_exec', sessionId: 's', signal: new AbortController().signal, progress: () => {} };
      const result = await runWithToolContext(context, () => tool.shellExec('for n in 5 9 30 100; do cat /proc/self/fd/$n/secret.txt; echo x > /proc/self/fd/$n/written.txt; done 2>/dev/null; echo probed'));
      process.stdout.write(result.stdout);
      tool.dispose();`;
    const directory = fs.openSync(outside, 'r');
    try {
      const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(98).fill('ignore')];
      for (const at of [5, 9, 30, 100]) stdio[at] = directory;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio, encoding: 'utf8', timeout: 30_000 });
      expect(child.stdout).toContain('probed');
      expect(child.stdout).not.toContain('INHERITED-SECRET');
      expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    } finally {
      fs.closeSync(directory);
    }
  });
});

describe.skipIf(!support.available)('a workspace another tool set can rename', () => {
  // Two tool sets whose workspaces nest: the outer one's commands may rename the inner workspace (or a folder on its
  // way) and put a link to elsewhere, or another folder, in its place. No sandbox is made on what took its place.
  it.for([
    ['host', 'a link to a folder outside', 'inner', (outside: string) => `mv inner inner.real && ln -s ${outside} inner`],
    ['session', 'a link to a folder outside', 'inner', (outside: string) => `mv inner inner.real && ln -s ${outside} inner`],
    ['host', 'another folder', 'inner', (outside: string) => `mv inner inner.real && mkdir inner && cp ${outside}/secret.txt inner/`],
    ['session', 'a link on the way to it', 'a/inner', (outside: string) => `mv a a.real && ln -s ${outside} a`],
    ['host', 'a link on the way to the same folder', 'a/inner', () => 'mv a a.real && ln -s a.real a'],
  ] as const)('refuses to run (%s backend) where the workspace was replaced by %s, and reads and writes nothing there', async ([backend, , where, swap]) => {
    const outer = setUp({ [`${where}/notes.txt`]: 'inner\n' }, {}, { backend });
    const outside = outsideWithSecret('replaced-', 'REPLACED-SECRET');
    if (where === 'a/inner') fs.mkdirSync(path.join(outside, 'inner')); // what a link on the way would lead to
    const innerTool = new ShellTool({
      workspace: new WorkspacePolicy({ root: path.join(outer.root, where) }),
      shell: { backend, unjudged: true, timeoutMs: 20_000 } as ShellConfig,
    });
    const context = toolContext({ toolName: 'shell_exec', sessionId: 'inner' });
    const runInner = (command: string) =>
      runWithToolContext(context, () => innerTool.shellExec(command, 20, false)).then(
        (result) => `${(result as ShellResult).stdout}\n${(result as ShellResult).stderr}`,
        (error: Error) => error.message,
      );
    try {
      expect(await runInner('cat notes.txt')).toContain('inner');
      innerTool.dispose(); // a session shell started before stays in its own sandbox; a new one is planned after the swap
      // Its placeholders go once its last process has (until then the outer sandbox would cover them, and the
      // folders on their way could not be renamed at all).
      for (let waited = 0; fs.existsSync(path.join(outer.root, where, '.git')) && waited < 10_000; waited += 25)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect((await outer.run(`${swap(outside)}; echo swapped`)).text).toContain('swapped');
      const text = await runInner('cat secret.txt; echo pwned > pwned.txt; pwd');
      expect(text).toMatch(
        /^Shell commands cannot run: the workspace '.*' (is now a symbolic link or no folder|was replaced by another folder|is reached through a symbolic link)/,
      );
      expect(text).toContain('nothing ran');
      expect(text).not.toContain('REPLACED-SECRET');
      expect(fs.readdirSync(outside).sort()).toEqual(fs.existsSync(path.join(outside, 'inner')) ? ['inner', 'secret.txt'] : ['secret.txt']);
      if (fs.existsSync(path.join(outside, 'inner'))) expect(fs.readdirSync(path.join(outside, 'inner'))).toEqual([]);
    } finally {
      innerTool.dispose();
      outer.tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('a sandbox that cannot be made', () => {
  it.for(['host', 'session'] as const)('says why (%s backend), and leaves no other command paused', async (backend) => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3_100; i++) files[`keys/k${i}.key`] = 'SECRET';
    const { tool, run } = setUp(files, { deniedPaths: ['keys/*.key'] }, { backend });
    try {
      const { text } = await run('cat keys/k1.key; echo ran');
      expect(text).toMatch(/^The command was not run: it would cover \d+ paths one by one, more than bubblewrap takes/);
      // The pause taken for it was let go of: the next one is had at once.
      const next = await Promise.race([pauseCommands(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000))]);
      expect(next).toBeTypeOf('function');
      next?.();
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('names that are not UTF-8', () => {
  /** Makes `parts` (each a string or raw bytes) as nested folders under `root`, the last holding `file`. */
  const makeRaw = (root: string, parts: (string | Buffer)[], file: string) => {
    let at = Buffer.from(root);
    for (const part of parts) at = Buffer.concat([at, Buffer.from('/'), Buffer.isBuffer(part) ? part : Buffer.from(part)]);
    fs.mkdirSync(at, { recursive: true });
    fs.writeFileSync(Buffer.concat([at, Buffer.from(`/${file}`)]), 'original\n');
    return Buffer.concat([at, Buffer.from(`/${file}`)]);
  };

  it.for([
    ['a repository inside such a folder', ['pkg', Buffer.from([0xff, 0x64]), '.git']],
    ['such a folder deeper', ['a', 'b', Buffer.from([0xc3, 0x28]), 'c', '.git']],
    ['a repository whose own name is not UTF-8 above it', [Buffer.from([0x80]), '.git']],
  ] as const)('refuses rather than leave a protected path writable behind %s', async ([, parts]) => {
    const { root, tool, run } = setUp({ 'pkg/.git/config': 'original\n' });
    const config = makeRaw(root, [...parts], 'config');
    try {
      const { text } = await run(`find . -path '*/.git/config' -exec sh -c 'echo PWN >> "$1"' _ {} \\; ; echo ran`);
      expect(text).toMatch(/^Shell commands cannot run: the protected path '.*\\x[0-9a-f]{2}.*\.git' lies at or below a name that is not UTF-8/);
      expect(fs.readFileSync(config, 'utf8')).toBe('original\n');
    } finally {
      tool.dispose();
    }
  });

  it('runs commands beside such a name when nothing protected lies below it', async () => {
    const { tool, run } = setUp({ 'pkg/.git/config': 'original\n' });
    try {
      const made = await run(`mkdir $'\\xff' && echo x > $'\\xff'/notes.txt && echo made`);
      expect(made.text).toContain('made');
      const { text } = await run('echo x >> pkg/.git/config; echo ran');
      expect(text).toContain('ran');
      expect(text).toContain('Read-only file system');
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('links a command makes and goes through in the same line', () => {
  // The judge refuses a line whose command copies or makes links beside others (linkOrderProblem): with it off, a
  // relative link copied up a level leads out of the workspace, and every way of making it and of going through it
  // must still reach nothing outside.
  const MAKERS = ['cp -P d/lnk L', 'cp -d d/lnk L', 'cp -a d/lnk L', 'cp -r d/lnk L', 'mv d/lnk L', 'ln -s ../OUT L'];
  const WALKERS = [
    'cat L/secret.txt',
    'cp notes.txt L/planted.txt',
    'touch L/touched',
    'mkdir L/made',
    '(cd L && cat secret.txt)',
    'grep -r SECRET L',
    'echo x > L/redirected',
  ];

  it.for(['host', 'session'] as const)('reads and writes nothing outside, however the link is made and gone through (%s backend)', async (backend) => {
    const outside = outsideWithSecret('linked-', 'LINKED-SECRET');
    const { tool, run } = setUp({ 'notes.txt': 'n' }, {}, { backend });
    const name = path.basename(outside);
    const lines = MAKERS.flatMap((maker) =>
      WALKERS.map(
        (walker) =>
          // A fresh link each time; from d/e it leads inside (../../<name>), from the root beside the workspace.
          `rm -rf L d; mkdir -p d/e; ln -s ../../${name} d/e/lnk; ${maker.replace('OUT', name)} 2>/dev/null; ${walker} 2>/dev/null`,
      ),
    );
    try {
      const { text } = await run(`${lines.join('; ')}; echo checked`);
      expect(text).toContain('checked');
      expect(text).not.toContain('LINKED-SECRET');
      expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    } finally {
      tool.dispose();
    }
  });
});

describe.skipIf(!support.available)('a command running beside another', () => {
  // A folder made after a job started is not pinned in the job's sandbox: it swaps it for a link while a later
  // call's sandbox is planned and mounted, so bubblewrap would mount the host directory the link leads to
  // (resolved from its old root) or make its mount point there.
  // 250 sandboxed calls: seconds on a quiet machine, minutes on a loaded one (each call makes a sandbox).
  it.for(['host', 'session'] as const)("cannot turn a later call's mounts into the host's directories (%s backend)", { timeout: 300_000 }, async (backend) => {
    const outside = outsideWithSecret('outside-', 'OUTSIDE-SECRET');
    const { root, tool, run } = setUp({}, { deniedPaths: ['**/*.key'] }, { backend });
    const up = '../'.repeat(root.split('/').length - 1);
    try {
      // The swapper runs beside the calls: a background job, or a session shell's own background process.
      if (backend === 'host') await run(SWAPPER(`${up}tmp`, 15), true);
      else await run(`(${SWAPPER(`${up}tmp`, 15)} >/dev/null 2>&1 &); echo started`);
      const probe = `cat ${outside}/secret.txt 2>/dev/null; echo escaped > ${outside}/written.txt 2>/dev/null; echo probed`;
      const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
      let seen = '';
      for (let i = 0; i < 250; i++) {
        if (backend === 'host') {
          const t = (await run(probe + '; grep -c . /proc/self/mountinfo; grep " /tmp " /proc/self/mountinfo')).text;
          seen += t;
        } else {
          // A session's own commands share its sandbox: each probe is a background job, which gets a sandbox of its own
          // (or is refused, when the look at the workspace saw it change).
          try {
            const started = (await runWithToolContext(context, () => tool.shellExec(probe, 20, true))) as ShellJobStarted;
            const status = await runWithToolContext(context, () => tool.shellJobOutput(started.jobId, 10));
            seen += `${status.result?.stdout ?? ''}${status.result?.stderr ?? ''}`;
          } catch (error) {
            expect((error as Error).message).toMatch(/^Shell commands cannot run/);
          }
        }
      }
      expect(seen).toContain('probed');
      expect(seen).not.toContain('OUTSIDE-SECRET');
      expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
      expect(fs.existsSync(path.join(os.tmpdir(), 'y.key'))).toBe(false);
    } finally {
      tool.dispose();
    }
  });
});

const groups = controlGroupSupport();
/** Every way a command starts processes: each must count against the one limit of the command. */
const SPAWNERS: Record<string, string> = {
  'background jobs': 'for i in $(seq 60); do sleep 0.5 & done; wait',
  subshells: 'for i in $(seq 60); do (sleep 0.5) & done; wait',
  pipelines:
    'sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5 | sleep 0.5',
  'xargs in parallel': 'seq 60 | timeout 3 xargs -P 60 -n 1 sleep 0.5',
  'nested shells': 'bash -c \'for i in $(seq 30); do sleep 0.5 & done; bash -c "for i in \\$(seq 30); do sleep 0.5 & done; wait"; wait\'',
  'a program that forks': 'python3 -c "import os, time\nfor i in range(60):\n  os.fork() == 0 and (time.sleep(0.5), os._exit(0))\ntime.sleep(0.5)"',
};

describe.skipIf(!support.available || !groups.available)('limits the kernel keeps for a command as a whole (a control group per command)', () => {
  // Side by side: each waits seconds on bash's fork retries (a second, then two) and uses next to no CPU meanwhile.
  it.concurrent.for((['host', 'session'] as const).flatMap((backend) => Object.keys(SPAWNERS).map((way) => [backend, way] as const)))(
    'counts the processes started by %s backend commands through %s against one limit, though the command is root',
    async ([backend, way], { expect }) => {
      const { tool, run } = setUp({}, {}, { backend, limits: { processes: 16 } });
      try {
        const { text, result } = await run(`${SPAWNERS[way]!} 2>/dev/null; echo ended`);
        expect(result, text).toBeDefined();
        expect(result!.limitsReached?.[0]).toMatch(/^processes: the command ran 16 processes and threads at once/);
      } finally {
        tool.dispose();
      }
    },
  );

  it.for(['host', 'session'] as const)('counts the memory of all the processes of a %s backend command together', async (backend) => {
    const { tool, run } = setUp({}, {}, { backend, limits: { memoryBytes: 128 * 1024 * 1024 } });
    const touch = `python3 -c "import time; a=bytearray(48*1024*1024); a[::4096]=b'x'*len(a[::4096]); time.sleep(1)"`;
    try {
      const { text, result } = await run(`for i in 1 2 3 4; do ${touch} & done; wait; echo ended`);
      expect(text).toContain('ended');
      expect(result!.limitsReached?.[0]).toMatch(/^memory: the command's processes together used 128 MiB, the most they may; the kernel killed \d+ of them$/);
    } finally {
      tool.dispose();
    }
  });

  it('leaves no process in a control group once the commands have ended, and reuses the groups', async () => {
    const { tool, run } = setUp({}, {}, { backend: 'host' });
    const before = ownCommandGroups().length;
    for (let i = 0; i < 5; i++) await run('sleep 0.1 & sleep 0.1 & wait');
    await run('sleep 5', true);
    tool.dispose();
    const busy = () => ownCommandGroups().filter((dir) => fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim() !== '');
    for (let i = 0; i < 100 && busy().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(busy()).toEqual([]);
    // One group per hierarchy for the commands one after another, another for the job that overlapped them.
    expect(ownCommandGroups().length - before).toBeLessThanOrEqual(2 * (groups.available ? new Set(groups.controllers).size : 0));
  });
});

/** The command groups this process has made, in every hierarchy. */
function ownCommandGroups(): string[] {
  const found: string[] = [];
  for (const mount of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const point = / - cgroup2? /.test(mount) ? mount.split(' ')[4] : undefined;
    if (!point) continue;
    const walk = (dir: string, depth: number) => {
      if (depth > 4) return;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const child = path.join(dir, entry.name);
        if (entry.name === `toolwright-${process.pid}`) for (const group of fs.readdirSync(child)) found.push(path.join(child, group));
        else walk(child, depth + 1);
      }
    };
    walk(point, 0);
  }
  return found.filter((dir) => fs.statSync(dir).isDirectory());
}
