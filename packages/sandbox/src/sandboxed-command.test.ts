import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox, type SandboxSupport } from './probe.js';
import { DEFAULT_LIMITS, type ResourceLimits } from './resource-limits.js';
import { closeLaunchDescriptors, sandboxedCommand, sandboxLimitsPrelude, type Launch } from './sandboxed-command.js';
import type { SandboxPolicy } from './sandbox-policy.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox tests, but: ${support.reason}`);

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sbx-')));
const workspace = path.join(base, 'ws');
fs.mkdirSync(path.join(workspace, '.git'), { recursive: true });
fs.writeFileSync(path.join(workspace, '.git', 'config'), 'original\n');
fs.mkdirSync(path.join(workspace, 'secrets'));
fs.writeFileSync(path.join(workspace, 'secrets', 'prod.key'), 'SECRET-KEY');
fs.writeFileSync(path.join(workspace, 'token.txt'), 'SECRET-TOKEN');
fs.writeFileSync(path.join(base, 'outside.txt'), 'OUTSIDE');
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    workspace,
    readOnly: [path.join(workspace, '.git')],
    hidden: [path.join(workspace, 'secrets'), path.join(workspace, 'token.txt')],
    readable: [],
    network: false,
    home: '/tmp/home',
    cwd: workspace,
    limits: DEFAULT_LIMITS,
    ...extra,
  };
}

function run(
  script: string,
  options: {
    features?: Partial<Extract<SandboxSupport, { available: true }>['features']>;
    policy?: Partial<SandboxPolicy>;
    limits?: Partial<ResourceLimits>;
  } = {},
) {
  const available = support as Extract<SandboxSupport, { available: true }>;
  const tried = { ...available, features: { ...available.features, ...options.features } };
  const given = policy({ ...options.policy, limits: { ...DEFAULT_LIMITS, ...options.limits } });
  const launch = sandboxedCommand(tried, given, ['/bin/bash', '--noprofile', '--norc', '-c', `${sandboxLimitsPrelude(tried, given)} ${script}`]);
  return spawnLaunch(launch);
}

/** Runs a launch to its end, its `input` handed over on descriptor 4 (from a file: spawnSync writes to stdin only), its descriptors from 5 on. */
function spawnLaunch(launch: Launch) {
  const inputFile = path.join(base, `input-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(inputFile, launch.input ?? '');
  const input = fs.openSync(inputFile, 'r');
  try {
    const result = spawnSync(launch.file, launch.args, {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp/home' },
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'pipe', 'ignore', input, ...(launch.descriptors ?? [])],
    });
    return { code: result.status, signal: result.signal, out: result.stdout, err: result.stderr };
  } finally {
    fs.closeSync(input);
    fs.rmSync(inputFile);
    closeLaunchDescriptors(launch);
  }
}

describe.skipIf(!support.available)(sandboxedCommand, () => {
  // Older bubblewrap (no --disable-userns) is run too: there only the dropped capabilities stop a remount.
  const featureSets = [{ disableUserns: true }, { disableUserns: false }];

  it.for(featureSets)('holds no capability and cannot remount, mount or escape with disableUserns=$disableUserns', (features) => {
    const r = run(
      'grep -E "^Cap(Eff|Prm|Bnd)" /proc/self/status; mount -o remount,rw,bind /usr 2>/dev/null && echo REMOUNTED; unshare -Urm sh -c "mount -o remount,rw,bind /usr && echo NESTED-REMOUNT" 2>/dev/null; touch /usr/x 2>/dev/null && echo WROTE-USR; echo done',
      { features },
    );
    expect(r.out).toMatch(/CapEff:\s+0+\n/);
    expect(r.out).toMatch(/CapBnd:\s+0+\n/);
    expect(r.out).not.toMatch(/REMOUNTED|NESTED-REMOUNT|WROTE-USR/);
    expect(r.out).toContain('done');
  });

  it('takes its options on a descriptor: thousands of covered paths fit, no command reads the plan from /proc, and more are refused', () => {
    const many = path.join(workspace, 'many-with-a-long-folder-name-that-would-fill-the-argument-space-of-a-command');
    fs.mkdirSync(many);
    const hidden = Array.from({ length: 1_200 }, (_, i) => path.join(many, `secret-file-number-${i}-with-a-name-long-enough-to-count.key`));
    for (const file of hidden) fs.writeFileSync(file, 'SECRET');
    try {
      const r = run(`cat ${path.relative(workspace, hidden[1_199]!)}; tr "\\0" " " < /proc/1/cmdline; echo; echo end`, { policy: { hidden } });
      expect(r.err).toBe('');
      expect(r.out).toMatch(/^\S*bwrap --args 4 -- \/bin\/bash .*\nend\n$/);
      expect(r.out).not.toMatch(/SECRET|--ro-bind|--tmpfs|prod\.key/);
      const more = [...hidden, ...Array.from({ length: 2_000 }, (_, i) => path.join(many, `more-${i}.key`))];
      for (const file of more.slice(hidden.length)) fs.writeFileSync(file, 'SECRET');
      expect(() => run('true', { policy: { hidden: more } })).toThrow(/it would cover \d+ paths one by one, more than bubblewrap takes/);
    } finally {
      fs.rmSync(many, { recursive: true });
    }
  });

  it('shows the workspace read-write, its protected paths read-only and its denied paths empty', () => {
    const r = run('echo new > made.txt && cat made.txt; echo x >> .git/config || echo RO; cat .git/config; ls -A secrets; cat token.txt; echo end');
    expect(r.out).toBe('new\nRO\noriginal\nend\n');
    expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('new\n');
    expect(fs.readFileSync(path.join(workspace, '.git', 'config'), 'utf8')).toBe('original\n');
  });

  it('shows nothing outside the workspace but the system, with a short passwd and no shadow', () => {
    const r = run(
      `cat ${base}/outside.txt; for p in /root /home /etc/shadow /etc/ssh /etc/sudoers ${base}/outside.txt; do [ -e $p ] && echo "SEEN $p"; done; echo names: $(cut -d: -f1 /etc/passwd | sort); ls /`,
    );
    expect(r.out).not.toContain('OUTSIDE');
    expect(r.out).not.toContain('SEEN');
    const names = /^names: (.*)$/m.exec(r.out)?.[1]?.split(' ') ?? [];
    expect(names).toContain('root');
    expect(names.filter((name) => name !== 'root' && name !== 'nobody').length).toBeLessThanOrEqual(1);
    const top = r.out
      .split('\n')
      .slice(r.out.split('\n').findIndex((line) => line.startsWith('names:')) + 1)
      .filter(Boolean);
    expect(top.filter((entry) => ['srv', 'opt', 'boot', 'work', 'root', 'home', 'mnt'].includes(entry))).toEqual([]);
  });

  it('gives a private /tmp and an empty home, gone afterwards', () => {
    const marker = `tw-private-${process.pid}`;
    const r = run(`touch /tmp/${marker} && ls -A ~ && ls /tmp`);
    expect(r.code).toBe(0);
    expect(r.out).toContain(marker);
    expect(fs.existsSync(path.join('/tmp', marker))).toBe(false);
  });

  it('has only loopback unless the policy allows the network', () => {
    expect(run('ls /sys/class/net 2>/dev/null || cut -d: -f1 /proc/net/dev | tail -n +3').out.trim()).toBe('lo');
  });

  it('is its own PID namespace: kill -1 reaches only the command, and nothing outlives it', () => {
    const marker = 3000 + (process.pid % 997);
    const host = spawn('sleep', [String(marker + 1)], { stdio: 'ignore' });
    try {
      const r = run(`sleep ${marker} & disown; echo $$; kill -9 -1 2>/dev/null; sleep ${marker} & disown; echo started`);
      expect(r.out).toMatch(/^\d\nstarted\n$/);
      expect(host.exitCode).toBe(null);
      expect(host.signalCode).toBe(null);
      expect(spawnSync('pgrep', ['-f', `^sleep ${marker}$`], { encoding: 'utf8' }).stdout.trim()).toBe('');
    } finally {
      host.kill();
    }
  });

  it('applies the resource limits: CPU seconds, file size, memory', () => {
    const cpu = run('while :; do :; done', { limits: { cpuSeconds: 1 } });
    expect(cpu.signal ?? String(cpu.code)).toMatch(/SIGXCPU|SIGKILL|137|152/);
    const big = run('head -c 200000 /dev/zero > big; echo $?; stat -c %s big', { limits: { fileSizeBytes: 100 * 1024 } });
    expect(big.out.split('\n')[1]).toBe(String(100 * 1024));
    const memory = run('python3 -c "x = bytearray(400 * 1024 * 1024)" 2>&1 || echo REFUSED', { limits: { memoryBytes: 100 * 1024 * 1024 } });
    expect(memory.out).toMatch(/MemoryError|REFUSED/);
  });
});
