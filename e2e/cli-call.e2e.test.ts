import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject } from './support/temp-project.js';
import { toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cli-'));
  temporary.push(dir);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'first\nsecond\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(
    path.join(dir, 'policy.json'),
    JSON.stringify({
      rules: [
        { deny: 'file_delete', reason: 'nothing is deleted from here' },
        { allow: 'file_write(src/**)', match: ['src/a.ts'], not_match: ['src/../a.ts'] },
        { ask: 'file_write(**/*.lock)', match: ['deep/yarn.lock'] },
        { allow: 'file_read' },
      ],
      default: 'ask',
    }),
  );
  return dir;
}

const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe('toolwright call', () => {
  it('runs a core tool in the workspace and prints status, output, hash and duration', () => {
    const dir = workspace();
    const result = toolwright(['call', 'file_read', '--args', '{"path":"notes.txt"}', '--workspace', dir], dir);
    expect(result.status).toBe(0);
    const report = json(result.stdout);
    expect(report).toMatchObject({ status: 'completed', tool: 'file_read', output: { content: '1\tfirst\n2\tsecond', totalLines: 2 }, truncated: false });
    expect(report.outputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes a tool output holding terminal or bidi controls as \\u escapes, still JSON', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'hostile.txt'), 'a\u001b[2Jb\u009b31mc\u202ed\u0007e\n');
    const result = toolwright(['call', 'file_read', '--args', '{"path":"hostile.txt"}', '--workspace', dir, '--audit', 'none'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(json(result.stdout).output.content).toContain('a\u001b[2Jb\u009b31mc\u202ed\u0007e');
  });

  it('answers a malformed call with the correction text, exit 1', () => {
    const dir = workspace();
    const result = toolwright(['call', 'file_read', '--args', '{"limit":0}'], dir);
    expect(result.status).toBe(1);
    const report = json(result.stdout);
    expect(report.error.code).toBe('invalid_arguments');
    expect(report.content).toContain("missing required field 'path'");
  });

  it('reads large arguments from standard input with --args -', () => {
    const dir = workspace();
    const content = 'x'.repeat(200_000);
    const result = toolwright(['call', 'file_write', '--args', '-', '--policy', 'policy.json'], dir, JSON.stringify({ path: 'src/big.txt', content }));
    expect(result.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'src', 'big.txt'), 'utf8')).toBe(content);
  });

  it('denies by policy with the rule and its reason, and prints the proof', () => {
    const dir = workspace();
    const result = toolwright(['call', 'file_delete', '--args', '{"path":"notes.txt"}', '--policy', 'policy.json'], dir);
    expect(result.status).toBe(1);
    const report = json(result.stdout);
    expect(report.error.code).toBe('policy_denied');
    expect(report.content).toContain('nothing is deleted from here');
    expect(report.proof).toMatchObject({ decision: 'deny', rule: 'file_delete', ruleIndex: 0 });
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
  });

  it('refuses a call that needs approval when nothing can ask, and --yes approves it', () => {
    const dir = workspace();
    const refused = toolwright(['call', 'file_write', '--args', '{"path":"out.txt","content":"x"}', '--policy', 'policy.json'], dir, '');
    expect(json(refused.stdout).error.code).toBe('approval_required');
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
    const approved = toolwright(['call', 'file_write', '--args', '{"path":"out.txt","content":"x"}', '--policy', 'policy.json', '--yes'], dir);
    expect(approved.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('x');
  });

  it('writes a durable audit log in the workspace, one sequence per call', () => {
    const dir = workspace();
    toolwright(['call', 'file_read', '--args', '{"path":"notes.txt"}'], dir);
    toolwright(['call', 'file_delete', '--args', '{"path":"notes.txt"}', '--policy', 'policy.json'], dir);
    const records = fs
      .readFileSync(path.join(dir, '.toolwright', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.type)).toEqual([
      'ToolCallRequested',
      'CapabilityCheck',
      'PolicyDecision',
      'ToolCallCompleted',
      'ToolCallRequested',
      'CapabilityCheck',
      'PolicyDecision',
      'ToolCallRejected',
    ]);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps the model confined: a path outside the workspace is refused', () => {
    const dir = workspace();
    const result = toolwright(['call', 'file_read', '--args', '{"path":"../../etc/passwd"}', '--audit', 'none'], dir);
    expect(result.status).toBe(1);
    expect(json(result.stdout).content).toContain('outside');
  });

  it('answers usage errors with exit code 2', () => {
    const dir = workspace();
    expect(toolwright(['call', 'file_read'], dir)).toMatchObject({ status: 2 });
    expect(toolwright(['call', 'file_read', '--args', '{}', '--policy', 'missing.json'], dir).stderr).toContain('no such file');
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ rules: [{ allow: 'file_write(src/**)', match: ['lib/a.ts'] }] }));
    const bad = toolwright(['call', 'file_read', '--args', '{}', '--policy', 'bad.json'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('does not match its example "lib/a.ts"');
    expect(toolwright(['call', 'file_read', '--args', '{}', '--workspace', path.join(dir, 'nope')], dir).stderr).toContain('does not exist');
  });
});

describe('toolwright policy', () => {
  it('explain shows the deciding rule and every rule in evaluation order', () => {
    const dir = workspace();
    const result = toolwright(['policy', 'explain', 'file_write', '--args', '{"path":"src/../x.ts"}', '--policy', 'policy.json'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('file_write: ASK');
    expect(result.stdout).toContain('no rule matches; the default (ask) applies');
    expect(result.stdout).toContain('path = "src/../x.ts" does not match "src/**"');
    const locked = toolwright(['policy', 'explain', 'file_write', '--args', '{"path":"src/yarn.lock"}', '--policy', 'policy.json'], dir);
    // ask is evaluated before allow, whatever the order in the file
    expect(locked.stdout).toContain('decided by rule 3: ask file_write(**/*.lock)');
    const asJson = json(
      toolwright(['policy', 'explain', 'file_write', '--args', '{"path":"src/a.ts"}', '--policy', 'policy.json', '--format', 'json'], dir).stdout,
    );
    expect(asJson).toMatchObject({ decision: 'allow', proof: { rule: 'file_write(src/**)' } });
  });

  it('explain names the nearest tools for a typo', () => {
    const dir = workspace();
    const result = toolwright(['policy', 'explain', 'file_wirte', '--policy', 'policy.json'], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Did you mean 'file_write'");
  });

  it('check loads a policy and verifies its examples', () => {
    const dir = workspace();
    expect(toolwright(['policy', 'check', 'policy.json'], dir).stdout).toContain('4 rule(s), every example holds');
  });
});

/** Whether the built `shell_exec` declares `escalate` (it does once the kernel sandbox lands); until then validation refuses the argument. */
function shellDeclaresEscalate(): boolean {
  const listed = JSON.parse(toolwright(['list'], workspace()).stdout) as { name: string; parameters: { properties: object } }[];
  return 'escalate' in (listed.find((tool) => tool.name === 'shell_exec')?.parameters.properties ?? {});
}

describe('an escalation: shell_exec asking to run outside the sandbox', () => {
  const ESCALATE = '{"command":"true","escalate":true}';
  const OUTSIDE = 'it runs "true" outside the kernel sandbox, where files outside the workspace and the network are within its reach';

  it('policy explain says ASK for it under allow *, naming it as running outside the sandbox', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'allow-all.json'), JSON.stringify({ rules: [{ allow: '*' }] }));
    const result = toolwright(['policy', 'explain', 'shell_exec', '--args', ESCALATE, '--policy', 'allow-all.json'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('shell_exec: ASK');
    expect(result.stdout).toContain(`run outside the sandbox: ${OUTSIDE} — only a person confirming it approves that`);
    const inside = toolwright(['policy', 'explain', 'shell_exec', '--args', '{"command":"true"}', '--policy', 'allow-all.json'], dir);
    expect(inside.stdout).toContain('shell_exec: ALLOW');
  });

  // Runs once shell_exec declares `escalate` (the sandbox branch); skipped before, when the call is refused as invalid_arguments.
  it.skipIf(!shellDeclaresEscalate())('call --yes refuses it, under allow * too: a person must confirm it interactively; the audit says so', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'allow-all.json'), JSON.stringify({ rules: [{ allow: '*' }] }));
    for (const policy of [[], ['--policy', 'allow-all.json']]) {
      const result = toolwright(['call', 'shell_exec', '--args', ESCALATE, '--yes', ...policy], dir, '');
      expect(result.status).toBe(1);
      const report = json(result.stdout);
      expect(report.error).toMatchObject({ code: 'escalation_unapproved', details: { approval: 'blanket', escalation: OUTSIDE } });
      expect(report.content).toContain('blanket approval (such as --yes, or approving every call) never lets a call run outside the sandbox');
      expect(report.content).toContain('Only a person confirming it interactively can allow it');
    }
    const records = fs
      .readFileSync(path.join(dir, '.toolwright', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.filter((r) => r.type === 'PolicyDecision')).toEqual([
      expect.objectContaining({ approval: 'unconfirmed', escalation: OUTSIDE }),
      expect.objectContaining({ approval: 'unconfirmed', escalation: OUTSIDE, rule: '*' }),
    ]);
  });
});

describe('toolwright list', () => {
  it("lists the core tools and a project's own tools", () => {
    const dir = copyProject('basic-project', 'list');
    temporary.push(dir);
    const result = toolwright(['list', '-p', 'tsconfig.json'], dir);
    expect(result.status).toBe(0);
    const names = json(result.stdout).map((d: { name: string }) => d.name);
    expect(names).toEqual(expect.arrayContaining(['file_read', 'file_write', 'add_numbers', 'read_lines']));
    const projectOnly = json(toolwright(['list', '-p', 'tsconfig.json', '--no-core'], dir).stdout).map((d: { name: string }) => d.name);
    expect(projectOnly).not.toContain('file_read');
  });

  it.each([
    ['openai', (out: any) => out[0].type === 'function' && typeof out[0].function.name === 'string'],
    ['openai-strict', (out: any) => out.every((t: any) => t.function.strict === true && t.function.parameters.additionalProperties === false)],
    ['anthropic', (out: any) => typeof out[0].input_schema === 'object'],
    ['gemini', (out: any) => out.functionDeclarations[0].parameters.type === 'OBJECT'],
    ['mcp', (out: any) => typeof out.tools[0].annotations.readOnlyHint === 'boolean'],
  ])('--format %s prints the provider format', (format, check) => {
    const dir = workspace();
    const result = toolwright(['list', '--format', format], dir);
    expect(result.status).toBe(0);
    expect(check(json(result.stdout))).toBe(true);
  });

  it('refuses an unknown format with the list of formats', () => {
    const result = toolwright(['list', '--format', 'xml'], workspace());
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('openai-strict');
  });
});

describe('a flattened tool, compiled and called', () => {
  it("declares its options object's properties as arguments and receives one object built from them", () => {
    const dir = copyProject('basic-project', 'flatten');
    temporary.push(dir);
    fs.writeFileSync(
      path.join(dir, 'src', 'scrape.ts'),
      [
        "import { tool } from '@toolwright/tool';",
        '/** What to scrape. */',
        'export interface ScrapeOptions {',
        '  /** The page. @format uri */',
        '  url: string;',
        '  /** Keep only the main content. */',
        '  onlyMainContent?: boolean;',
        '}',
        '/** Scrapes one page. */',
        'export const scrapePage = tool(async function scrapePage(options: ScrapeOptions) {',
        '  return { received: options, count: arguments.length };',
        "}, { flatten: true, tier: 'read-only' });",
      ].join('\n'),
    );
    const listed = toolwright(['list', '-p', 'tsconfig.json', '--no-core', '--format', 'openai-strict'], dir);
    expect(listed.status, listed.stderr).toBe(0);
    const declared = json(listed.stdout).find((t: any) => t.function.name === 'scrape_page');
    expect(Object.keys(declared.function.parameters.properties)).toEqual(['url', 'onlyMainContent']);

    const result = toolwright(['call', 'scrape_page', '--args', '{"url":"https://example.com"}', '-p', 'tsconfig.json', '--audit', 'none'], dir);
    expect(result.status, result.stderr).toBe(0);
    expect(json(result.stdout).output).toEqual({ received: { url: 'https://example.com' }, count: 1 });
  });
});
