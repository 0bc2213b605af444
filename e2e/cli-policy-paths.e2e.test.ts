// Policy path rules and protected paths through the CLI, as a hijacked model's calls arrive under `--yes`:
// a deny rule holds however the path is spelled, a recursive delete cannot take protected paths with it,
// and the files that configure Toolwright itself cannot be rewritten.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO, toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-paths-')));
  temporary.push(dir);
  fs.writeFileSync(path.join(dir, '.env'), 'TOKEN=SECRET-VALUE\n');
  fs.mkdirSync(path.join(dir, 'secrets'));
  fs.mkdirSync(path.join(dir, 'sub', '.git'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'sub', '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(dir, 'sub', 'a.txt'), 'a');
  fs.symlinkSync('../.env', path.join(dir, 'sub', 'env-link'));
  fs.writeFileSync(
    path.join(dir, 'deny.json'),
    JSON.stringify({ rules: [{ deny: 'file_read(.env)' }, { deny: 'file_write(secrets/**)' }, { allow: 'file_*' }] }),
  );
  return dir;
}

const json = (text: string) => JSON.parse(text) as Record<string, any>;
const call = (dir: string, tool: string, args: unknown, extra: string[] = ['--policy', 'deny.json', '--audit', 'none']) =>
  toolwright(['call', tool, '--yes', '--workspace', dir, '--args', JSON.stringify(args), ...extra], dir);

/** Every spelling the workspace resolves to `relative`: a scope prefix or root, then `/`, `//`, `/./` or `/x/../` between its parts. */
function spellings(dir: string, relative: string): string[] {
  const prefixes = ['', './', './/', 'private:/', 'private:/./', `${dir}/`, `${dir}//`, 'sub/../', 'secrets/../sub/../'];
  const [first, ...rest] = relative.split('/');
  return rest.reduce(
    (spelled, part) => spelled.flatMap((before) => ['/', '//', '/./', '/x/../'].map((join) => `${before}${join}${part}`)),
    prefixes.map((p) => p + first),
  );
}

/** `private:/` and absolute spellings, and a handful drawn from every spelling (each one starts the CLI: 36 of `a/b` would take a minute). */
function someSpellings(dir: string, relative: string, count: number): string[] {
  return [...new Set([`private:/${relative}`, `${dir}/${relative}`, ...fc.sample(fc.constantFrom(...spellings(dir, relative)), count)])];
}

describe('policy path rules hold however the path is spelled', () => {
  it('file_read of every spelling of .env is denied, and policy explain says DENY', () => {
    const dir = workspace();
    const spelled = [...spellings(dir, '.env'), 'sub/env-link', '.env/', './.env/.', `${dir}/sub/../.env`];
    for (const spelling of spelled) {
      const result = call(dir, 'file_read', { path: spelling });
      expect(result.status, spelling).toBe(1);
      expect(json(result.stdout).error.code, spelling).toBe('policy_denied');
      expect(result.stdout).not.toContain('SECRET-VALUE');
    }
    // explain reads the path as the executor does (explain-agrees.test.ts holds them to one verdict for any call):
    // here a few spellings, drawn anew each run, show the command's own wiring.
    for (const spelling of fc.sample(fc.constantFrom(...spelled), 3)) {
      const explain = toolwright(['policy', 'explain', 'file_read', '--policy', 'deny.json', '--args', JSON.stringify({ path: spelling })], dir);
      expect(explain.stdout, spelling).toMatch(/^file_read: DENY/);
    }
  });

  it('file_write of every spelling under secrets/ is denied and writes nothing', () => {
    const dir = workspace();
    for (const spelled of someSpellings(dir, 'secrets/k', 6)) {
      const result = call(dir, 'file_write', { path: spelled, content: 'PWNED' });
      expect(json(result.stdout).error.code, spelled).toBe('policy_denied');
    }
    expect(fs.readdirSync(path.join(dir, 'secrets'))).toEqual([]);
  });

  it('a deny rule naming a path inside a tree holds against a recursive delete of any ancestor (property)', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'a', 'b', 'c'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'b', 'c', 'keep.txt'), 'keep');
    fs.writeFileSync(path.join(dir, 'keep.json'), JSON.stringify({ rules: [{ deny: 'file_delete(a/b/c/keep.txt)' }, { allow: 'file_*' }] }));
    for (const target of [...someSpellings(dir, 'a', 2), ...someSpellings(dir, 'a/b', 2), 'a/b/c']) {
      const result = call(dir, 'file_delete', { path: target, recursive: true }, ['--policy', 'keep.json', '--audit', 'none']);
      expect(json(result.stdout).error?.code, target).toBe('policy_denied');
    }
    expect(fs.readFileSync(path.join(dir, 'a', 'b', 'c', 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('a path the workspace refuses still reaches the tool, which reports it', () => {
    const dir = workspace();
    const result = call(dir, 'file_read', { path: '../../etc/passwd' });
    expect(json(result.stdout).error.code).toBe('tool_failed');
  });
});

describe('a recursive delete names the protected paths inside its tree', () => {
  it.for(['sub', './sub', 'private:/sub', 'sub/'])('file_delete %s with --yes leaves sub/.git in place', (spelled) => {
    const dir = workspace();
    const result = call(dir, 'file_delete', { path: spelled, recursive: true }, ['--audit', 'none']);
    expect(json(result.stdout).error).toMatchObject({ code: 'protected_path_unapproved', details: { paths: ['sub/.git'] } });
    expect(fs.existsSync(path.join(dir, 'sub', '.git', 'config'))).toBe(true);
  });

  it('a tree without protected paths is deleted as before', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'build', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'build', 'deep', 'x.js'), '');
    expect(json(call(dir, 'file_delete', { path: 'build', recursive: true }, ['--audit', 'none']).stdout).status).toBe('completed');
    expect(fs.existsSync(path.join(dir, 'build'))).toBe(false);
  });
});

describe("Toolwright's own configuration is protected from the file tools", () => {
  function configured(): string {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'conf'));
    fs.writeFileSync(path.join(dir, 'conf', 'rules.json'), JSON.stringify({ rules: [{ allow: 'file_*' }] }));
    fs.writeFileSync(path.join(dir, 'toolwright.config.json'), JSON.stringify({ policy: 'conf/rules.json', audit: { path: 'logs/calls.jsonl' } }));
    return dir;
  }

  it.for<[string, string]>([
    ['the config file', 'toolwright.config.json'],
    ['the default policy file name', 'toolwright.policy.json'],
    ['the policy file the config names', 'conf/rules.json'],
    ['the audit log the config names', 'logs/calls.jsonl'],
    ['a nested config file', 'sub/toolwright.config.json'],
  ])('a --yes file_write to %s is refused with protected_path_unapproved', ([, file]) => {
    const dir = configured();
    const before = fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined;
    // Each tool with a spelling drawn anew each run (the first test holds every spelling to one path; each call starts the CLI).
    const [forWrite, forDelete] = fc.sample(fc.constantFrom(file, `./${file}`, `${dir}/${file}`), 2) as [string, string];
    for (const [tool, args] of [
      ['file_write', { path: forWrite, content: '{"shell":{"allow":["node"]}}' }],
      ['file_delete', { path: forDelete }],
    ] as const) {
      const result = toolwright(['call', tool, '--yes', '--workspace', dir, '--args', JSON.stringify(args)], dir);
      expect(json(result.stdout).error?.code, `${tool} ${args.path}`).toBe('protected_path_unapproved');
    }
    const after = fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined;
    expect(after === undefined || after === before || file === 'logs/calls.jsonl').toBe(true);
    expect(fs.readFileSync(path.join(dir, 'toolwright.config.json'), 'utf8')).not.toContain('node');
  });

  // The audit log's folder whole: its rotated files and its lock lie beside it (a review rewrote `<log>.1`).
  it("protects a policy file given by --policy and an audit log given by --audit, with the log's folder", () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'ops'));
    fs.writeFileSync(path.join(dir, 'ops', 'p.json'), JSON.stringify({ rules: [{ allow: 'file_*' }] }));
    for (const file of ['ops/p.json', 'ops/audit.log', 'ops/audit.log.1', 'ops/audit.log.lock', 'ops/other.json']) {
      const result = call(dir, 'file_write', { path: file, content: '{}' }, ['--policy', 'ops/p.json', '--audit', 'ops/audit.log']);
      expect(json(result.stdout).error?.code, file).toBe('protected_path_unapproved');
    }
    expect(fs.readdirSync(path.join(dir, 'ops')).sort()).toEqual(['audit.log', 'p.json']);
    expect(json(call(dir, 'file_write', { path: 'other.json', content: '{}' }, ['--policy', 'ops/p.json', '--audit', 'ops/audit.log']).stdout).status).toBe(
      'completed',
    );
  });
});

describe('a deny rule on a reading tool hides its path from every tool', () => {
  const MARKER = 'TWMARK-e2e-5f1c';

  function hiding(rules: unknown[]): string {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'secrets', 'prod.key'), `API_KEY=${MARKER}\n`.repeat(40));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'app.ts'), 'export const API_KEY = process.env.API_KEY;\n');
    fs.writeFileSync(path.join(dir, 'hide.json'), JSON.stringify({ rules }));
    return dir;
  }
  const hidden = ['--policy', 'hide.json', '--audit', 'none'];

  it.for([
    ['file_search', { pattern: 'API_KEY' }],
    ['file_search', { pattern: 'TWMARK', include: ['**/*.key'] }],
    ['glob', { pattern: '**/*' }],
    ['file_list', { path: '.', depth: 5 }],
    ['shell_exec', { command: 'grep -r API_KEY .' }],
    ['shell_exec', { command: 'rg API_KEY' }],
    ['shell_exec', { command: 'ls -R' }],
  ] as const)('deny *(secrets/**): %s %j shows nothing of secrets/', ([tool, args]) => {
    const dir = hiding([{ deny: '*(secrets/**)' }]);
    const result = call(dir, tool, args, hidden);
    expect(result.stdout).not.toContain(MARKER);
    expect(result.stdout).not.toContain('prod.key');
    if (tool === 'file_search' && 'pattern' in args && args.pattern === 'API_KEY') expect(result.stdout).toContain('src/app.ts');
  });

  it.for([
    ['file_read', { path: 'secrets/prod.key' }, 'policy_denied'],
    ['file_list', { path: 'secrets' }, 'path_denied'],
    ['file_search', { pattern: 'API', path: 'secrets' }, 'path_denied'],
    ['glob', { pattern: '*', path: 'secrets' }, 'path_denied'],
    ['file_write', { path: 'secrets/new.txt', content: 'x' }, 'path_denied'],
    ['shell_exec', { command: 'cat secrets/prod.key' }, 'command_refused'],
  ] as const)('deny file_read(secrets/**): %s %j is refused (%s)', ([tool, args, code]) => {
    const dir = hiding([{ deny: 'file_read(secrets/**)' }]);
    const report = json(call(dir, tool, args, hidden).stdout);
    expect(report.error.code === 'tool_failed' ? report.error.details.errorCode : report.error.code).toBe(code);
    expect(JSON.stringify(report)).not.toContain(MARKER);
    if (code !== 'policy_denied') expect(report.error.message).toContain("pattern 'secrets/**'");
  });

  it('a deny rule on writes alone hides nothing, and the same paths come from an inline policy in toolwright.config.json', () => {
    const writes = hiding([{ deny: 'file_write(secrets/**)' }]);
    expect(json(call(writes, 'file_list', { path: 'secrets' }, hidden).stdout).output.entries).toEqual([
      { path: 'prod.key', kind: 'file', size: expect.any(Number) },
    ]);
    const inline = hiding([]);
    fs.writeFileSync(path.join(inline, 'toolwright.config.json'), JSON.stringify({ policy: { rules: [{ deny: 'file_*(secrets/**)' }] }, audit: 'none' }));
    const result = toolwright(['call', 'file_search', '--yes', '--args', JSON.stringify({ pattern: 'API_KEY' })], inline);
    expect(result.stdout).not.toContain(MARKER);
    expect(json(result.stdout).output.matches.map((m: { path: string }) => m.path)).toEqual(['src/app.ts']);
  });

  it('toolwright serve (MCP) hides the same paths', async () => {
    const dir = hiding([{ deny: '*(secrets/**)' }]);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(REPO, 'packages', 'cli', 'dist', 'bin.js'), 'serve', '--mcp', 'stdio', '--workspace', dir, ...hidden],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      const text = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      expect(await text('file_search', { pattern: 'API_KEY' })).toContain('src/app.ts');
      for (const [name, args] of [
        ['file_search', { pattern: 'TWMARK' }],
        ['glob', { pattern: '**' }],
        ['file_list', { path: 'secrets' }],
      ] as const) {
        expect(await text(name, args), name).not.toMatch(/TWMARK|prod\.key/);
      }
    } finally {
      await client.close();
    }
  });
});
