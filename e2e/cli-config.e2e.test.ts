// toolwright.config.json driving `call`, `list`, `policy` and `serve`, as a user's project would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO, toolwright } from './support/run.js';

const BIN = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function directory(files: Record<string, unknown> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-config-')));
  temporary.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const ID = ['call', 'shell_exec', '--args', '{"command":"id"}', '--yes'];
const report = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('a workspace nobody named (found by a review)', () => {
  // Claude Desktop starts MCP servers with / as the working directory.
  it('is refused when it would be /, naming --workspace, by call, list and serve; --workspace runs them', () => {
    for (const args of [ID, ['list'], ['serve', '--mcp', 'stdio']]) {
      const refused = toolwright(args, '/');
      expect(refused.status, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain('The workspace would be /, the root of the file system');
      expect(refused.stderr).toContain('--workspace');
      expect(refused.stderr).not.toContain('internal error');
    }
    const dir = directory();
    const named = toolwright(['call', 'file_list', '--args', '{"path":"."}', '--workspace', dir], '/');
    expect(named.status).toBe(0);
  });
});

describe('toolwright.config.json', () => {
  it('{ "shell": { "allow": ["id"] } } lets call run id, which the default refuses', () => {
    const dir = directory({ 'f.json': { shell: { allow: ['id'] } } });
    const refused = toolwright(ID, dir);
    expect(refused.status).toBe(1);
    expect(report(refused.stdout).content).toContain("'id' is not in the shell allowlist");
    const allowed = toolwright([...ID, '--config', 'f.json'], dir);
    expect(allowed.status).toBe(0);
    expect(report(allowed.stdout).output.stdout).toMatch(/^uid=\d+/);
  });

  it('is found in the current directory, else in the --workspace directory', () => {
    const here = directory({ 'toolwright.config.json': { shell: { allow: ['id'] } } });
    expect(toolwright(ID, here).status).toBe(0);
    const elsewhere = directory();
    expect(toolwright([...ID, '--workspace', here], elsewhere).status).toBe(0);
  });

  it('takes paths relative to the file, and flags override it', () => {
    const dir = directory({
      'conf/toolwright.config.json': { workspace: { root: '../ws' }, audit: { path: 'logs/audit.jsonl', durability: 'batched' } },
      'ws/notes.txt': 'from the configured root\n',
      'other/notes.txt': 'from the flag\n',
    });
    const configured = toolwright(['call', 'file_read', '--args', '{"path":"notes.txt"}', '--config', 'conf/toolwright.config.json'], dir);
    expect(report(configured.stdout).output.content).toContain('from the configured root');
    expect(fs.readFileSync(path.join(dir, 'conf', 'logs', 'audit.jsonl'), 'utf8')).toContain('file_read');
    const flagged = toolwright(
      ['call', 'file_read', '--args', '{"path":"notes.txt"}', '--config', 'conf/toolwright.config.json', '--workspace', 'other', '--audit', 'none'],
      dir,
    );
    expect(report(flagged.stdout).output.content).toContain('from the flag');
  });

  it('rotates the audit log by size, and every record stays readable in order', async () => {
    const dir = directory({
      'toolwright.config.json': { audit: { path: 'audit.jsonl', rotate: { maxBytes: 1024, keep: 2 } } },
      'notes.txt': 'hello\n',
    });
    for (let i = 0; i < 4; i++) expect(toolwright(['call', 'file_read', '--args', '{"path":"notes.txt"}'], dir).status).toBe(0);
    const file = path.join(dir, 'audit.jsonl');
    expect(fs.existsSync(`${file}.1`)).toBe(true);
    for (const f of [file, `${file}.1`, `${file}.2`].filter((f) => fs.existsSync(f))) expect(fs.statSync(f).size).toBeLessThanOrEqual(1024);
    const { readAuditLog } = await import('@toolwright/executor');
    const seqs = readAuditLog(file).records.map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    expect(seqs.at(-1)).toBeGreaterThan(4);
  });

  it('applies the risk mode and the output budget', () => {
    const dir = directory({ 'big.txt': 'line\n'.repeat(5000) });
    const write = ['call', 'file_write', '--args', '{"path":"a.txt","content":"x"}', '--audit', 'none'];
    expect(report(toolwright(write, dir).stdout).status).toBe('completed');
    fs.writeFileSync(path.join(dir, 'toolwright.config.json'), JSON.stringify({ risk: 'autorun_none', maxOutputBytes: 300 }));
    expect(report(toolwright(write, dir).stdout).error.code).toBe('approval_required');
    const read = report(toolwright(['call', 'file_read', '--args', '{"path":"big.txt"}', '--audit', 'none'], dir).stdout);
    // file_read fits its page to the budget and says where to read on, so the executor cuts nothing.
    expect(read).toMatchObject({ status: 'completed', truncated: false });
    expect(read.content.length).toBeLessThanOrEqual(300);
    expect(read.content).toMatch(/\[lines 1–\d+ of 5000; read on with offset \d+\]$/);
  });

  it('selects the listed tools and reports a bad key with the file, its JSON path and the nearest key', () => {
    const dir = directory({ 'toolwright.config.json': { tools: { include: ['file_*'], exclude: ['file_delete'] } } });
    const listed = toolwright(['list'], dir);
    expect(listed.status).toBe(0);
    const names = (JSON.parse(listed.stdout) as { name: string }[]).map((d) => d.name).sort();
    expect(names).toEqual(['file_edit', 'file_list', 'file_read', 'file_search', 'file_write']);
    fs.writeFileSync(path.join(dir, 'toolwright.config.json'), '{ "shell": { "alow": ["id"] } }');
    const bad = toolwright(['list'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`${path.join(dir, 'toolwright.config.json')}: $.shell.alow: unknown key 'alow'; did you mean 'allow'?\n`);
  });

  it('gives policy explain and check the inline policy and the risk mode', () => {
    const dir = directory({
      'toolwright.config.json': { risk: 'autorun_none', policy: { rules: [{ deny: 'file_delete', reason: 'kept', match: ['a.txt'] }] } },
    });
    const explained = toolwright(['policy', 'explain', 'file_delete', '--args', '{"path":"a.txt"}'], dir);
    expect(explained.status).toBe(0);
    expect(explained.stdout).toContain('deny');
    const checked = toolwright(['policy', 'check'], dir);
    expect(checked.stdout).toContain('1 rule(s), every example holds');
  });
});

describe('toolwright serve with toolwright.config.json', () => {
  it('serves only the configured tools, runs the configured shell and audits where the file says', async () => {
    const dir = directory({
      'toolwright.config.json': {
        shell: { allow: ['id'] },
        policy: { rules: [{ allow: 'shell_exec(id)' }] },
        audit: { path: 'serve-audit.jsonl' },
        tools: { include: ['shell_exec', 'file_read'] },
      },
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--mcp', 'stdio'], cwd: dir, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['file_read', 'shell_exec']);
      const result = (await client.callTool({ name: 'shell_exec', arguments: { command: 'id' } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).toContain('uid=');
    } finally {
      await client.close();
    }
    expect(fs.readFileSync(path.join(dir, 'serve-audit.jsonl'), 'utf8')).toContain('shell_exec');
  });

  it('refuses to start on a config error, naming the file and the key', () => {
    const dir = directory({ 'toolwright.config.json': { web: { search: { provider: 'brave', apiKeyEnv: 'TW_E2E_UNSET_KEY' } } } });
    const result = toolwright(['serve', '--mcp', 'stdio'], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'toolwright.config.json: $.web.search.apiKeyEnv: names the environment variable TW_E2E_UNSET_KEY, which is not set or empty',
    );
  });
});
