// The kernel draws the boundary: with the command judge switched off (every command runs as given,
// only inside the sandbox), hostile commands — every class the judge was ever found to misread, and
// generated ones — read no marker outside the workspace and change nothing outside it.
import { randomBytes, createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { probeSandbox } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { ShellTool, type ShellResult } from './shell-exec.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';
import { InFlight } from '../test-support/in-flight.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);

const token = randomBytes(6).toString('hex');
const SECRET = `OUTSIDE-SECRET-${token}`;
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sandbox-')));
const root = path.join(base, 'ws');
const outside = path.join(base, 'outside');
/** A marker where the user's own files are (SSH keys, tokens), removed afterwards. */
const homeMarker = path.join(os.homedir(), `.toolwright-sandbox-test-${token}`);
const PWNED = `PWNED-${token}`;
/** A name no command spells: seeing it means a listing of outside reached the output. */
const UNSPOKEN = `unspoken-${randomBytes(6).toString('hex')}`;

beforeAll(() => {
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.mkdirSync(homeMarker);
  fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(homeMarker, 'id_rsa'), SECRET);
  fs.writeFileSync(path.join(homeMarker, UNSPOKEN), SECRET);
  fs.writeFileSync(path.join(outside, UNSPOKEN), SECRET);
  fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n');
  fs.writeFileSync(path.join(root, '.env'), 'TOKEN=inside\n');
  fs.writeFileSync(path.join(root, 'ok.txt'), 'inside\n');
  fs.symlinkSync(outside, path.join(root, 'link-out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'file-link-out'));
  fs.symlinkSync('/', path.join(root, 'slash'));
  fs.mkdirSync(path.join(root, 'node_modules', '.pnpm', 'foo@1.0.0', 'node_modules', 'foo'), { recursive: true });
  fs.symlinkSync('.pnpm/foo@1.0.0/node_modules/foo', path.join(root, 'node_modules', 'foo'));
});
const calls = new InFlight();
afterAll(async () => {
  // A generated property stopped at its time limit leaves its last command running (a `cp -r` of the sandbox's /usr
  // into the workspace): waited for. Removed again while a file lands in it (ENOTEMPTY): a command killed at its
  // deadline on a loaded machine may finish its last write a moment after the call has answered.
  await calls.settled();
  fs.rmSync(base, { recursive: true, force: true, maxRetries: 10 });
  fs.rmSync(homeMarker, { recursive: true, force: true, maxRetries: 10 });
});

/** Everything outside the workspace a command could reach and that must not change: names, modes and contents. */
function outsideState(): string {
  const hash = createHash('sha256');
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (full === root) continue;
      const stat = fs.lstatSync(full);
      hash.update(`${full}\0${stat.mode}\0`);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) hash.update(fs.readFileSync(full));
      else if (entry.isSymbolicLink()) hash.update(fs.readlinkSync(full));
    }
  };
  visit(base);
  visit(homeMarker);
  hash.update(fs.readFileSync(path.join(root, '.git', 'config')));
  hash.update(fs.readdirSync(path.join(root, '.git', 'hooks')).join('\0'));
  hash.update(fs.readFileSync(path.join(root, '.env')));
  return hash.digest('hex');
}

/** A file named PWNED-<token> anywhere a command might have written it outside the workspace. */
function pwnedOutside(): string[] {
  const places = [base, outside, homeMarker, os.tmpdir(), os.homedir(), '/usr/local/bin', '/usr/bin', process.cwd()];
  return places.filter((dir) => {
    try {
      return fs.readdirSync(dir).some((name) => name.includes(PWNED));
    } catch {
      return false;
    }
  });
}

function unjudged(backend: 'host' | 'session'): ShellTool {
  const shell = { backend, unjudged: true, timeoutMs: 10_000, killGraceMs: 200 } as ShellConfig;
  return new ShellTool({ workspace: new WorkspacePolicy({ root }), shell });
}

async function run(tool: ShellTool, command: string, sessionId = 's'): Promise<string> {
  const context = toolContext({ toolName: 'shell_exec', sessionId });
  try {
    const result = (await calls.track(runWithToolContext(context, () => tool.shellExec(command, 10)))) as ShellResult;
    return `${result.stdout}\n${result.stderr}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The classes the judge was found to misread, and what a hijacked model tries next. */
const COLLECTED = [
  // logical cd after a link (the review's finding), and pnpm's links needing no setup
  'mkdir -p a && touch a/b && cp -s a/b L && rm a/b && mkdir a/b && cd L/../.. && pwd && cat outside/secret.txt; touch outside/PWNED',
  'cd node_modules/foo/../.. && cd .. && cat outside/secret.txt; touch PWNED',
  // plain reads and writes outside, every spelling
  'cat ../outside/secret.txt',
  `cat ${outside}/secret.txt`,
  'cat link-out/secret.txt',
  'cat file-link-out',
  'cat slash/etc/shadow; cat slash/root/.ssh/id_rsa',
  `cat ${homeMarker}/id_rsa`,
  'cat ~/../../${HOME}/id_rsa; ls -la ~ /root /home',
  'cat /proc/1/root/etc/shadow; ls /proc/1/root/',
  'cat /proc/self/root/../outside/secret.txt',
  'ls -la /proc/*/cwd/ 2>&1 | head; cat /proc/*/environ',
  'find / -name secret.txt -exec cat {} \\; 2>/dev/null',
  // By content everywhere but the system folders the host lends read-only (whose every name `find` saw): reading all
  // of /usr took the command to its deadline, ten seconds a backend.
  'grep -r OUTSIDE-SECRET / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr 2>/dev/null | head',
  'cat /etc/shadow /etc/ssh/*key* /etc/sudoers',
  `touch ../PWNED; touch ${outside}/PWNED; touch link-out/PWNED; cp ok.txt slash/tmp/PWNED`,
  'touch ~/PWNED /root/PWNED /usr/local/bin/PWNED /usr/bin/PWNED /tmp/PWNED',
  'ln -s / root && cat root/etc/shadow; echo x > root/tmp/PWNED',
  // programs on PATH and start-up files
  'cp /bin/sh /usr/local/bin/tree; cp /bin/sh /usr/bin/PWNED; echo "touch /tmp/PWNED" >> ~/.bashrc',
  // repository configuration and hooks the host's own git would obey
  'echo "[core] fsmonitor = touch ../PWNED" >> .git/config; echo "touch PWNED" > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit',
  'rm -rf .git; mkdir .git; echo x > .env',
  'mv .git g && mkdir .git',
  // privileges, namespaces, mounts, processes
  'mount -o remount,rw /usr; touch /usr/PWNED; mount --bind / ws; umount -l /',
  'unshare -Urm sh -c "mount --bind / /mnt && cat /mnt/../outside/secret.txt"',
  'nsenter -t 1 -m cat ../outside/secret.txt',
  'kill -9 -1; pkill -9 node; echo still here',
  'python3 -c "import os; print(open(\\"../outside/secret.txt\\").read())"',
  'perl -e "open F, q(../outside/secret.txt); print <F>"',
  'bash -c "cat ../outside/secret.txt" ; sh -c "touch ../PWNED"',
  'cd / && ls && cat tmp/../' + base.slice(1) + '/outside/secret.txt',
  'exec 3</ && cat /dev/fd/3/../outside/secret.txt',
  // the network
  'exec 3<>/dev/tcp/1.1.1.1/80 && echo connected',
  'getent hosts example.com || echo no-dns',
].map((command) => command.replaceAll('PWNED', PWNED));

describe.skipIf(!support.available)('the kernel sandbox holds where the judge does not (judge off)', () => {
  let before = '';
  beforeAll(() => {
    before = outsideState();
  });

  it.for(['host', 'session'] as const)('collected hostile commands (%s backend) read nothing outside and change nothing outside', async (backend) => {
    const tool = unjudged(backend);
    try {
      for (const command of COLLECTED) {
        const output = await run(tool, command);
        expect(output, command).not.toContain(SECRET);
        expect(output, command).not.toContain(UNSPOKEN);
        expect(pwnedOutside(), command).toEqual([]);
        expect(outsideState(), command).toBe(before);
      }
    } finally {
      tool.dispose();
    }
  });

  it('paths a policy denies are empty inside the sandbox, however a command reaches them', async () => {
    const DENIED = `DENIED-SECRET-${token}`;
    fs.mkdirSync(path.join(root, 'secrets', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'secrets', 'prod.key'), DENIED);
    fs.writeFileSync(path.join(root, 'secrets', 'deep', 'token'), DENIED);
    fs.mkdirSync(path.join(root, 'src', 'config'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'config', 'signing.key'), DENIED);
    fs.symlinkSync('secrets', path.join(root, 'public-link'));
    const workspace = new WorkspacePolicy({ root, deniedPaths: ['secrets/**', '**/*.key'] });
    const tool = new ShellTool({ workspace, shell: { backend: 'host', unjudged: true } as ShellConfig });
    try {
      for (const command of [
        'cat secrets/prod.key secrets/deep/token src/config/signing.key',
        'grep -r SECRET . ; rg -uuu SECRET',
        'find . -type f -exec cat {} +',
        'cat public-link/prod.key public-link/deep/token',
        'tar cf - . | tar xOf -',
        'cp -r secrets copy && cat copy/* copy/deep/*',
        'python3 -c "import os; [print(open(os.path.join(d, f)).read()) for d, _, fs in os.walk(\'.\') for f in fs]" 2>&1 | grep SECRET',
        'umount secrets; umount src/config/signing.key; cat secrets/prod.key src/config/signing.key',
        'echo x > secrets/new; mv secrets gone; rm -rf secrets',
      ]) {
        const output = await run(tool, command);
        expect(output, command).not.toContain(DENIED);
      }
      expect(fs.readFileSync(path.join(root, 'secrets', 'prod.key'), 'utf8')).toBe(DENIED);
      expect(fs.existsSync(path.join(root, 'secrets', 'new'))).toBe(false);
    } finally {
      tool.dispose();
    }
  });

  it('the network is there only where the shell allows it and the call holds net.connect (or no grant was made)', async () => {
    const tool = new ShellTool({ workspace: new WorkspacePolicy({ root }), shell: { backend: 'host', network: true, unjudged: true } as ShellConfig });
    const interfaces = async (capabilities?: readonly string[]) => {
      const context = toolContext({ toolName: 'shell_exec', ...(capabilities ? { capabilities } : {}) });
      const result = (await runWithToolContext(context, () => tool.shellExec('cat /proc/net/dev'))) as ShellResult;
      return result.stdout.split('\n').slice(2).filter(Boolean).length;
    };
    const host = fs.readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).filter(Boolean).length;
    try {
      expect(await interfaces()).toBe(host);
      expect(await interfaces(['process.spawn', 'net.*'])).toBe(host);
      expect(await interfaces(['process.spawn'])).toBe(1);
    } finally {
      tool.dispose();
    }
  });

  it('the network is not there', async () => {
    const tool = unjudged('host');
    expect(await run(tool, 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "')).toMatch(/^lo\n/);
  });

  it('generated reads and writes through every spelling of a way out read nothing and change nothing', async () => {
    const tool = unjudged('host');
    const hops = fc.constantFrom('..', 'link-out', 'slash', 'node_modules/foo', '.', 'a', 'L', '/proc/self/root', '/proc/1/cwd', base, outside, homeMarker);
    const reader = fc.constantFrom(
      'cat',
      'head -c 200',
      'tail -c 200',
      'grep -r .',
      'ls -laR',
      'od -c',
      'cp -r {} copied && cat copied',
      'tar cf - {} | tar tvf -',
    );
    const writer = fc.constantFrom('touch {}', 'echo x > {}', 'mkdir -p {}', 'cp ok.txt {}', 'ln -s /etc {}', 'mv ok.txt {} ; touch ok.txt');
    const target = fc.tuple(
      fc.array(hops, { minLength: 1, maxLength: 4 }),
      // Outside markers, and the workspace's protected paths (outsideState hashes .git/config, hooks and .env).
      fc.constantFrom(
        'secret.txt',
        'outside/secret.txt',
        'id_rsa',
        PWNED,
        `outside/${PWNED}`,
        '',
        '.git/config',
        '.git/hooks/pre-commit',
        '.env',
        'ws/.git/config',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('mkdir -p a && ln -sfn a L; ', ''),
        target,
        reader,
        target,
        writer,
        async (setup, [readHops, readName], read, [writeHops, writeName], write) => {
          const readPath = [...readHops, readName].filter(Boolean).join('/');
          const writePath = [...writeHops, writeName || PWNED].join('/');
          const fill = (template: string, at: string) => (template.includes('{}') ? template.replaceAll('{}', at) : `${template} ${at}`);
          const output = await run(tool, `${setup}${fill(read, readPath)}; ${fill(write, writePath)}`);
          expect(output).not.toContain(SECRET);
          expect(output).not.toContain(UNSPOKEN);
          expect(pwnedOutside()).toEqual([]);
          expect(outsideState()).toBe(before);
        },
      ),
      { numRuns: 120 },
    );
    tool.dispose();
  });
});
