import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolwright } from './support/run.js';

// Reproductions of issue 10 that the executor answers: items 4 (numbers), 10 (protected paths under
// --yes) and 12 (policy and executor agree), through the built CLI as a user runs it.
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(policy?: object): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-hostile-'));
  temporary.push(dir);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  fs.mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.git', 'config'), '[core]\n');
  if (policy) fs.writeFileSync(path.join(dir, 'policy.json'), JSON.stringify(policy));
  return dir;
}

const report = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('the executor under hostile calls', () => {
  it.for<[string, string]>([
    ['{"path":"a.txt","offset":1e400}', '$.offset'],
    ['{"path":"a.txt","limit":12345678901234567890}', '$.limit'],
    ['{"path":"a.txt","offset":-1E999}', '$.offset'],
  ])('refuses %s at parse time with its JSON path', ([args, where]) => {
    const dir = workspace();
    const result = toolwright(['call', 'file_read', '--args', args, '--audit', 'none'], dir, '');
    expect(result.status).toBe(1);
    expect(report(result.stdout).error).toMatchObject({ code: 'invalid_arguments', details: { issues: [{ path: where }] } });
    expect(result.stderr).not.toContain('internal error');
  });

  it('runs shell_exec that an allow rule names with nobody to ask, and explain says so', () => {
    const dir = workspace({ rules: [{ allow: 'shell_exec' }] });
    const explained = toolwright(['policy', 'explain', 'shell_exec', '--args', '{"command":"echo hi"}', '--policy', 'policy.json'], dir);
    expect(explained.stdout).toContain('shell_exec: ALLOW');
    const ran = toolwright(['call', 'shell_exec', '--args', '{"command":"echo hi"}', '--policy', 'policy.json', '--audit', 'none'], dir, '');
    expect(report(ran.stdout)).toMatchObject({ status: 'completed', output: { stdout: 'hi\n' } });
  });

  it('says who refused: nobody could be asked, not "the user"', () => {
    const dir = workspace();
    const refused = report(toolwright(['call', 'shell_exec', '--args', '{"command":"echo hi"}', '--audit', 'none'], dir, '').stdout);
    expect(refused.error.code).toBe('approval_required');
    expect(refused.content).toContain('no one could be asked');
    expect(refused.content).not.toContain('by the user');
  });

  // Needs core-tools' risk hook to report the path (`protectedPaths`), see packages/executor/README.md.
  it.for(['.git/config', '.git/hooks/pre-commit'])('never writes %s under --yes without a person confirming it', (file) => {
    const dir = workspace();
    const before = fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined;
    const result = report(
      toolwright(['call', 'file_write', '--args', JSON.stringify({ path: file, content: 'x' }), '--yes', '--audit', 'none'], dir, '').stdout,
    );
    expect(result.error).toMatchObject({ code: 'protected_path_unapproved', details: { approval: 'blanket' } });
    expect(fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined).toBe(before);
  });

  it('keeps the tool\'s own error code: "does not exist" is not "outside"', () => {
    const dir = workspace();
    const missing = report(toolwright(['call', 'file_read', '--args', '{"path":"nope.txt"}', '--audit', 'none'], dir, '').stdout);
    expect(missing.error.details).toMatchObject({ code: 'tool_failed', errorCode: 'not_found' });
    const outside = report(toolwright(['call', 'file_read', '--args', '{"path":"../../etc/passwd"}', '--audit', 'none'], dir, '').stdout);
    expect(outside.error.details).toMatchObject({ code: 'tool_failed', errorCode: 'outside_workspace' });
    const pattern = report(toolwright(['call', 'file_search', '--args', '{"pattern":"func("}', '--audit', 'none'], dir, '').stdout);
    expect(pattern.error.details).toMatchObject({ code: 'tool_failed', errorCode: 'invalid_pattern' });
    expect(pattern.content).toContain('Pass literal: true to search for the text as it is.');
  });
});
