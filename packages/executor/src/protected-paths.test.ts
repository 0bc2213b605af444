import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { ApprovalAnswer, ApprovalRequest } from './ports.js';
import { loadPolicy } from './policy/policy.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';

/** What core-tools' risk hook reports: the protected paths a write touches. */
const PROTECTED = /^(?:\.\/)*(?:\.git|\.toolwright|\.env)(?:\/|$)/;
const reportProtected = (args: Record<string, unknown>) =>
  typeof args.path === 'string' && PROTECTED.test(args.path) ? { level: 'risky' as const, protectedPaths: [args.path] } : ('safe' as const);

function setup(options: Partial<ExecutorOptions> = {}, answer: ApprovalAnswer | null = { kind: 'once' }) {
  const written: string[] = [];
  const asked: ApprovalRequest[] = [];
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async (path: string) => {
        written.push(path);
        return 'written';
      },
      declaration('file_write', { path: { type: 'string' }, content: { type: 'string' } }, { required: ['path'], metadata: { tier: 'side-effecting' } }),
    ),
  );
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({
    registry,
    audit,
    riskLevel: { file_write: reportProtected },
    ...(answer ? { approve: async (request) => (asked.push(request), answer) } : {}),
    ...options,
  });
  const write = (path: string, id = 'w') => executor.executeToolCall({ id, name: 'file_write', arguments: JSON.stringify({ path, content: 'x' }) });
  return { executor, audit, write, written, asked };
}

describe('auto-approval never covers a protected path', () => {
  it.for(['autorun_all', 'autorun_no_public', 'autorun_none'] as const)(
    'refuses .git/config and .git/hooks/pre-commit under an approve-everything handler (%s)',
    async (riskMode) => {
      const { write, written, asked } = setup({ riskMode });
      for (const path of ['.git/config', '.git/hooks/pre-commit', '.env', './.git/config']) {
        const result = await write(path);
        expect(failed(result).error).toEqual({ code: 'protected_path_unapproved', paths: [path], approval: 'blanket' });
        expect(result.content).toContain('blanket approval (such as --yes, or approving every call) never covers a protected path');
      }
      expect(written).toEqual([]);
      expect(asked[0]).toMatchObject({ protectedPaths: ['.git/config'], reason: 'it touches the protected path .git/config' });
    },
  );

  it('runs a protected write a person confirmed', async () => {
    const { write, written, audit } = setup({}, { kind: 'once', confirmProtected: true });
    expect((await write('.git/config')).status).toBe('completed');
    expect(written).toEqual(['.git/config']);
    expect(audit.records.find((r) => r.type === 'PolicyDecision')).toMatchObject({ approval: 'once' });
  });

  it('says nobody could be asked when there is no approver', async () => {
    const { write } = setup({}, null);
    const result = await write('.git/config');
    expect(failed(result).error).toEqual({ code: 'protected_path_unapproved', paths: ['.git/config'], approval: 'none' });
    expect(result.content).toContain('no one could be asked to confirm it');
  });

  it('never answers a protected call from an "always" given earlier', async () => {
    const answers: ApprovalAnswer[] = [{ kind: 'always', pattern: 'file_write(**)', confirmProtected: true }, { kind: 'reject' }];
    const { executor, written } = setup({ riskMode: 'autorun_none', approve: async () => answers.shift()! });
    expect((await executor.executeToolCall({ id: 'a', name: 'file_write', arguments: '{"path":"src/a.ts"}' })).status).toBe('completed');
    expect((await executor.executeToolCall({ id: 'b', name: 'file_write', arguments: '{"path":"src/b.ts"}' })).status).toBe('completed');
    const protectedWrite = await executor.executeToolCall({ id: 'c', name: 'file_write', arguments: '{"path":".git/config"}' });
    expect(failed(protectedWrite).error.code).toBe('approval_denied');
    expect(written).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it('lets an allow rule naming the path approve it, and no broader rule', async () => {
    const policy = (rule: string) => loadPolicy({ rules: [{ allow: rule }] });
    for (const [rule, path, runs] of [
      ['file_write(.git/hooks/*)', '.git/hooks/pre-commit', true],
      ['file_write(.git/hooks/*)', '.git/config', false],
      ['file_write(.env)', '.env', true],
      ['file_write', '.git/config', false],
      ['file_write(**)', '.git/config', false],
      ['file_*', '.env', false],
    ] as const) {
      const { write } = setup({ policy: policy(rule) });
      const result = await write(path);
      expect(result.status, `${rule} on ${path}`).toBe(runs ? 'completed' : 'error');
      if (!runs) expect(failed(result).error.code).toBe('protected_path_unapproved');
    }
  });

  it('shows the protected paths in previewGate and explainCall', () => {
    const { executor } = setup();
    expect(executor.previewGate('file_write', { path: '.git/config' })).toEqual({
      decision: 'ask',
      reason: 'it touches the protected path .git/config',
      protectedPaths: ['.git/config'],
    });
    expect(executor.explainCall('file_write', { path: '.git/config' })).toMatchObject({ decision: 'ask', protectedPaths: ['.git/config'] });
    expect(executor.previewGate('file_write', { path: 'src/a.ts' }).decision).toBe('allow');
  });
});
