// Hostile input against the core tools, through the executor as a model's calls would arrive.
// Every case must end as a well-formed result, and nothing may be read or written outside the workspace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import { MemoryAuditSink, ToolExecutor, type ToolCallResult } from '@toolwright/executor';
import { WorkspacePolicy, registerCoreTools, coreToolsRiskLevels, type CoreToolsEnvironment } from '@toolwright/core-tools';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-attack-')));
const root = path.join(base, 'ws');
const sibling = path.join(base, 'ws-evil');
const outside = path.join(base, 'outside');
for (const dir of [root, sibling, outside]) fs.mkdirSync(dir);
fs.writeFileSync(path.join(sibling, 'secret.txt'), 'SIBLING-SECRET');
fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
fs.writeFileSync(path.join(root, 'ok.txt'), 'inside\n');
fs.mkdirSync(path.join(root, 'src'));
fs.symlinkSync(outside, path.join(root, 'link-out'));
fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'file-link-out'));
/** Calls still running: a property stopped at its time limit leaves its last call going (fast-check stops waiting for it). */
const running = new Set<Promise<unknown>>();
const settled = () => Promise.allSettled([...running]);
afterAll(async () => {
  await settled();
  fs.rmSync(base, { recursive: true, force: true, maxRetries: 10 });
});

// CI runs this suite twice: in the kernel sandbox (the default) and with the judge alone (TOOLWRIGHT_TEST_SANDBOX=off).
const sandbox = process.env.TOOLWRIGHT_TEST_SANDBOX === 'off' ? 'off' : 'auto';
const env: CoreToolsEnvironment = { workspace: new WorkspacePolicy({ root }), web: {}, shell: { backend: 'host', sandbox } };
const registry = new ToolRegistry();
registerCoreTools(registry, env);
const executor = new ToolExecutor({
  registry,
  audit: new MemoryAuditSink(),
  riskMode: 'autorun_all',
  riskLevel: coreToolsRiskLevels(env),
  approve: async () => ({ kind: 'once' }),
  doomLoop: false,
  maxTimeoutMs: 10_000,
});

let n = 0;
const call = (name: string, args: unknown) => {
  const pending = executor.executeToolCall({ id: `a${n++}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
  running.add(pending);
  const forget = () => running.delete(pending);
  pending.then(forget, forget);
  return pending;
};

function outsideSnapshot(): string {
  const list = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? list(path.join(dir, d.name)) : [path.join(dir, d.name)]));
  return [...list(outside), ...list(sibling), ...fs.readdirSync(base)].sort().join('\n');
}
const before = outsideSnapshot();

function wellFormed(result: ToolCallResult): void {
  expect(['completed', 'error']).toContain(result.status);
  expect(typeof result.content).toBe('string');
  expect(result.content).not.toMatch(/OUTSIDE-SECRET|SIBLING-SECRET/);
  if (result.status === 'error') expect(result.content).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack traces
}

const HOSTILE_PATHS = [
  '../outside/secret.txt',
  '../../etc/passwd',
  '..',
  '../ws-evil/secret.txt',
  `${sibling}/secret.txt`,
  'link-out/secret.txt',
  'file-link-out',
  'src/../../outside/secret.txt',
  'private:/../outside/secret.txt',
  'shared:/x',
  'public:/../x',
  'ok.txt\0.png',
  'a\nb',
  '\u202eevil',
  'x'.repeat(5000),
  `${'a/'.repeat(3000)}b`,
  '%2e%2e/outside',
  '....//outside',
  '.\\..\\outside',
  '',
];

describe('path attacks', () => {
  it.each(HOSTILE_PATHS.map((p) => [JSON.stringify(p).slice(0, 60), p]))('%s', async (_label, hostile) => {
    for (const [tool, args] of [
      ['file_read', { path: hostile }],
      ['file_list', { path: hostile }],
      ['file_write', { path: hostile, content: 'PWNED' }],
      ['file_edit', { path: hostile, oldText: '', newText: 'PWNED' }],
      ['file_delete', { path: hostile, recursive: true }],
      ['glob', { pattern: '**', path: hostile }],
      ['file_search', { pattern: 'SECRET', path: hostile }],
    ] as const) {
      const result = await call(tool, args);
      wellFormed(result);
    }
    expect(outsideSnapshot()).toBe(before);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET');
  });

  it('a search from the root never follows links out', async () => {
    const result = await call('file_search', { pattern: 'SECRET' });
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') throw new Error(result.content);
    expect((result.output as { matches: unknown[] }).matches).toEqual([]);
  });

  it('a symlink swapped in while writes run never redirects a write outside', async () => {
    const target = path.join(root, 'race');
    let stop = false;
    const swapper = (async () => {
      while (!stop) {
        try {
          fs.rmSync(target, { recursive: true, force: true });
          fs.mkdirSync(target);
        } catch {
          /* racing */
        }
        await new Promise((r) => setImmediate(r));
        try {
          fs.rmSync(target, { recursive: true, force: true });
          fs.symlinkSync(outside, target);
        } catch {
          /* racing */
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 200; i++) wellFormed(await call('file_write', { path: `race/f${i}.txt`, content: 'RACE' }));
    stop = true;
    await swapper;
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('shell injection', () => {
  const canary = path.join(base, 'canary');
  const payloads = [
    `ls; touch ${canary}`,
    `ls && touch ${canary}`,
    `ls | touch ${canary}`,
    `ls $(touch ${canary})`,
    `ls \`touch ${canary}\``,
    `ls > ${canary}`,
    `ls >> ${canary}`,
    `cat ok.txt > ${canary}`,
    `echo x | tee ${canary}`,
    `touch ${canary}`,
    `touch ../canary`,
    `find . -exec touch ${canary} \\;`,
    `git -c core.pager='touch ${canary}' log`,
    `env touch ${canary}`,
    `timeout 5 touch ${canary}`,
    `xargs touch ${canary}`,
    `bash -c 'touch ${canary}'`,
    `eval touch ${canary}`,
    `ls\ntouch ${canary}`,
    `ls & touch ${canary}`,
    `ls <(touch ${canary})`,
    `A=1 touch ${canary}`,
    `ls ~/../../${canary}`,
    `cp ok.txt ${canary}`,
    `cp ok.txt ../canary`,
    `mkdir ../canary`,
    `ln -s / x`,
    `sed -n '1w ${canary}' ok.txt`,
    `sort -o ${canary} ok.txt`,
    `\${IFS}touch\${IFS}${canary}`,
    `ls;{touch,${canary}}`,
    'grep -R SECRET .',
    'grep -rR SECRET .',
    'rg -L SECRET',
    'rg --follow SECRET',
    'find -L . -name secret.txt',
    'cat link-out/secret.txt',
    'cat file-link-out',
    'head -c 100 file-link-out',
    'cd link-out && cat secret.txt',
    'cd src && cat ../link-out/secret.txt',
    `ls $'\\x3b' touch ${canary}`,
    `l\\s; touch ${canary}`,
    `/bin/touch ${canary}`,
    `cp ok.txt link-out/x`,
  ];
  it.each(payloads.map((p) => [p]))('%s', async (payload) => {
    const result = await call('shell_exec', { command: payload });
    wellFormed(result);
    expect(fs.existsSync(canary)).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('random metacharacter soup never escapes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom(
            'ls',
            'cat',
            'touch',
            `${canary}`,
            '../canary',
            ';',
            '&&',
            '|',
            '$(',
            ')',
            '`',
            '>',
            '<',
            "'",
            '"',
            '\\',
            '\n',
            '{',
            '}',
            '*',
            '~',
            '$HOME',
            ' ',
          ),
          { maxLength: 12 },
        ),
        async (parts) => {
          const result = await call('shell_exec', { command: parts.join(' ') || 'ls' });
          wellFormed(result);
          expect(fs.existsSync(canary)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
    await settled(); // a run stopped at the time limit is checked too
    expect(fs.existsSync(canary)).toBe(false);
  });
});

describe('chains: a file the model wrote decides what a command does', () => {
  const pwned = path.join(root, 'PWNED');
  const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
  const chains: Array<[string, Array<[string, Record<string, unknown>]>]> = [
    [
      'a file named -exec turns find -exe* into -exec',
      [
        ['file_write', { path: 'c1/-exec', content: '' }],
        ['shell_exec', { command: 'cd c1 && find . -maxdepth 0 -exe* touch ../PWNED \\;' }],
      ],
    ],
    [
      'a file named -delete turns find -de* into -delete',
      [
        ['file_write', { path: 'c2/-delete', content: '' }],
        ['file_write', { path: 'c2/keep.txt', content: 'x' }],
        ['shell_exec', { command: 'cd c2 && find -de*' }],
      ],
    ],
    [
      'a file named --pre=sh turns rg TODO * into a command runner',
      [
        ['file_write', { path: 'c3/--pre=sh', content: '' }],
        ['file_write', { path: 'c3/notes.txt', content: 'touch ../PWNED\n' }],
        ['shell_exec', { command: 'cd c3 && rg TODO *' }],
      ],
    ],
    [
      'a config copied over .git/config by cp',
      [
        ['file_write', { path: 'notes/cfg', content: '[core]\n\tfsmonitor = "touch PWNED; false"\n' }],
        ['shell_exec', { command: 'cp notes/cfg .git/config' }],
        ['shell_exec', { command: 'git status --short' }],
      ],
    ],
    [
      'a config copied into a nested repository',
      [
        ['file_write', { path: 'notes/cfg', content: '[core]\n\tfsmonitor = "touch ../PWNED; false"\n' }],
        ['shell_exec', { command: 'mkdir -p sub/.git' }],
        ['shell_exec', { command: 'cp notes/cfg sub/.git/config' }],
        ['shell_exec', { command: 'cd sub && git status' }],
      ],
    ],
    [
      'a planted bare repository',
      [
        ['file_write', { path: 'bare/HEAD', content: 'ref: refs/heads/main\n' }],
        ['file_write', { path: 'bare/config', content: '[core]\n\tbare = true\n\tfsmonitor = "touch ../PWNED; false"\n' }],
        ['file_write', { path: 'bare/refs/x', content: '' }],
        ['file_write', { path: 'bare/objects/x', content: '' }],
        ['shell_exec', { command: 'cd bare && git status' }],
      ],
    ],
    [
      'a package.json script',
      [
        ['file_write', { path: 'package.json', content: '{"scripts":{"test":"touch PWNED"}}' }],
        ['shell_exec', { command: 'npm test' }],
        ['shell_exec', { command: 'npm run test' }],
      ],
    ],
  ];
  it.each(chains)('%s', async (_title, steps) => {
    if (_title.includes('rg') && !hasRipgrep) return;
    spawnSync('git', ['init', '-q'], { cwd: root });
    for (const [tool, args] of steps) wellFormed(await call(tool, args));
    expect(fs.existsSync(pwned)).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
  it('find -de* leaves the workspace as it was', async () => {
    expect(fs.existsSync(path.join(root, 'c2', 'keep.txt'))).toBe(true);
  });
});

describe('SSRF', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://100.100.100.200/',
    'http://0/',
    'http://0.0.0.0/',
    'file:///etc/passwd',
    'gopher://127.0.0.1/',
    'http://user:pass@127.0.0.1/',
    'http://[64:ff9b::7f00:1]/',
    'http://localhost.:80/',
  ])('%s', async (url) => {
    const result = await call('web_fetch', { url });
    wellFormed(result);
    expect(result.status).toBe('error');
  });
});

describe('malformed arguments', () => {
  it('every core tool answers random argument strings with a well-formed result', async () => {
    const names = registry.names().filter((name) => name !== 'shell_exec' && name !== 'web_fetch' && name !== 'web_search');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ path: v, pattern: v, content: v, oldText: v, newText: v })),
        ),
        async (tool, args) => {
          wellFormed(await call(tool, args));
        },
      ),
      { numRuns: 1500 },
    );
    await settled();
    expect(outsideSnapshot()).toBe(before);
  });
});
