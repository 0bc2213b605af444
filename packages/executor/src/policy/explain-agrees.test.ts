import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import type { ExecutorOptions } from '../executor-options.js';
import { ToolExecutor } from '../tool-executor.js';
import type { ApprovalAnswer, PathResolver, RiskMode } from '../ports.js';
import { declaration, defineTool } from '../test-support/declare-tool.js';
import { failed } from '../test-support/call-results.js';
import { explainDecision } from '../gate/explain.js';
import { loadPolicy, type PolicyDocument, type PolicyRuleSource } from './policy.js';

const TOOLS = [
  declaration('shell_exec', { command: { type: 'string' }, escalate: { type: 'boolean' } }, { required: ['command'], metadata: { tier: 'privileged' } }),
  declaration('file_write', { path: { type: 'string' } }, { metadata: { tier: 'side-effecting' } }),
  declaration('file_read', { path: { type: 'string' } }),
  declaration('web_fetch', { url: { type: 'string' } }),
];
const SUBJECTS: Record<string, string[]> = {
  shell_exec: ['npm test', 'npm test; rm -rf /', 'rm -rf build', 'cp notes .git/config', 'git status'],
  file_write: [
    'src/a.ts',
    '.git/config',
    '.git/hooks/pre-commit',
    '.env',
    'public:/site/index.html',
    'src/../.git/config',
    'README.md',
    '/ws/.env',
    'private:/src/a.ts',
    'src/link',
  ],
  file_read: ['src/a.ts', '.env', 'public:/x', './.env', 'private:/.env', '/ws/.env', 'sub/../.env', './/.ENV', 'src/link'],
  web_fetch: ['https://docs.example.com/a', 'http://169.254.169.254/latest'],
};
const RULE_TEXTS = [
  '*',
  'shell_exec',
  'shell_exec(npm test*)',
  'shell_exec(*rm*)',
  'shell_exec(cp * .git/config)',
  'file_*',
  'file_write',
  'file_write(src/**)',
  'file_write(**)',
  'file_write(.git/**)',
  'file_write(.git/hooks/*)',
  'file_write(.env)',
  'file_read(.env)',
  'web_fetch(url=https://*)',
  'web_*',
  'file_read(src/**)',
  'file_read(./.env)',
  'file_read(private:/.env)',
];
/** Spellings of `.env` in SUBJECTS.file_read: a deny rule naming `.env` refuses every one. */
const ENV_SPELLINGS = new Set(['.env', './.env', 'private:/.env', '/ws/.env', 'sub/../.env', './/.ENV', 'src/link']);

const rule: fc.Arbitrary<PolicyRuleSource> = fc
  .tuple(fc.constantFrom('allow', 'ask', 'deny'), fc.constantFrom(...RULE_TEXTS))
  .map(([effect, text]): PolicyRuleSource => (effect === 'allow' ? { allow: text } : effect === 'ask' ? { ask: text } : { deny: text }));
const document: fc.Arbitrary<PolicyDocument> = fc
  .record({ rules: fc.array(rule, { maxLength: 5 }), default: fc.constantFrom(undefined, 'allow', 'ask', 'deny') })
  .map(({ rules, default: fallback }) => (fallback ? { rules, default: fallback } : { rules }));
/** A call; a shell call may be an escalation (`escalate: true`: run outside the sandbox). */
const call = fc
  .constantFrom(...TOOLS.map((t) => t.name))
  .chain((tool) =>
    fc.record({ tool: fc.constant(tool), subject: fc.constantFrom(...SUBJECTS[tool]!), escalate: tool === 'shell_exec' ? fc.boolean() : fc.constant(false) }),
  );

/**
 * core-tools' risk hook, as the executor sees it: protected paths for writes, from the shell's arguments
 * too, and the shell's escalation.
 */
const PROTECTED = /(?:^|[\s/])(\.git|\.env|\.toolwright)(?:\/[^\s]*)?(?=$|\s)/;
const riskLevel: ExecutorOptions['riskLevel'] = {
  file_write: (args) =>
    typeof args.path === 'string' && /^(?:\.git|\.env)(?:\/|$)/.test(args.path) ? { level: 'risky', protectedPaths: [args.path] } : 'safe',
  shell_exec: (args) => {
    const found = typeof args.command === 'string' ? PROTECTED.exec(args.command) : null;
    const escalation = args.escalate === true ? { escalation: `it runs ${JSON.stringify(args.command)} outside the kernel sandbox` } : {};
    return found || args.escalate === true ? { level: 'risky', protectedPaths: found ? [found[0].trim()] : [], ...escalation } : 'safe';
  },
};

/** A host's path resolver, as core-tools' would answer in a workspace at /ws where src/link leads to .env. */
const resolvePath: PathResolver = (_argument, value) => {
  if (value === 'src/link') return ['src/link', '.env'];
  const relative = value.startsWith('/ws/') ? value.slice('/ws/'.length) : value;
  return relative.startsWith('/') ? undefined : [path.posix.normalize(relative.replace(/^private:\//, ''))];
};
const pathResolvers: ExecutorOptions['pathResolvers'] = { file_write: resolvePath, file_read: resolvePath };

/**
 * One executor per approver, reused across runs (building one compiles its validators, which would
 * dominate the run time): each run installs its policy and risk mode.
 */
function executorWith(answer: ApprovalAnswer | null) {
  let asked = 0;
  const registry = new ToolRegistry();
  for (const tool of TOOLS) registry.register(defineTool(async () => 'ran', tool));
  const build = (settings: Pick<ExecutorOptions, 'policy' | 'riskMode'> = {}) =>
    new ToolExecutor({ registry, riskLevel, pathResolvers, doomLoop: false, ...settings, ...(answer ? { approve: async () => (asked++, answer) } : {}) });
  let executor = build();
  return {
    get executor() {
      return executor;
    },
    asked: () => asked,
    install(policyDocument: PolicyDocument, riskMode: RiskMode) {
      asked = 0;
      const policy = loadPolicy(policyDocument, (name) => registry.get(name)?.declaration);
      executor = build({ policy, riskMode });
      return policy;
    },
  };
}

describe('explain and the executor', () => {
  it("agree on every generated policy and call: explain's verdict is what the executor does (property)", async () => {
    const probe = executorWith(null);
    // A blanket `once`, and a person's confirming everything shown (answering only some of it is unit-tested).
    const answers: (Extract<ApprovalAnswer, { kind: 'once' }> | null)[] = [
      null,
      { kind: 'once' },
      { kind: 'once', confirmProtected: true, confirmEscalation: true },
    ];
    const runners = answers.map((answer) => ({ answer, run: executorWith(answer) }));
    await fc.assert(
      fc.asyncProperty(
        document,
        call,
        fc.constantFrom<RiskMode>('autorun_all', 'autorun_no_public', 'autorun_none'),
        async (policyDocument, { tool, subject, escalate }, riskMode) => {
          const args = { [tool === 'shell_exec' ? 'command' : tool === 'web_fetch' ? 'url' : 'path']: subject, ...(escalate ? { escalate } : {}) };
          const text = JSON.stringify(args);
          const policy = probe.install(policyDocument, riskMode);
          const explanation = probe.executor.explainCall(tool, args);
          if (riskMode === 'autorun_no_public' && !riskLevel[tool]) {
            // Without risk hooks, the bare explainDecision (as `policy explain` with no executor) says the same.
            expect(explainDecision(policy, tool, args, probe.executor.registry.get(tool)!.declaration, undefined, pathResolvers[tool]).decision).toBe(
              explanation.decision,
            );
          }
          const deniesEnv = policyDocument.rules.some(
            (r) => 'deny' in r && ['file_read(.env)', 'file_read(./.env)', 'file_read(private:/.env)'].includes(r.deny),
          );
          if (tool === 'file_read' && ENV_SPELLINGS.has(subject) && deniesEnv) expect(explanation.decision).toBe('deny');
          const isProtected = (explanation.protectedPaths?.length ?? 0) > 0;
          const isEscalation = explanation.escalation !== undefined;
          // No allow rule covers an escalation: only a deny rule decides it without a person.
          if (escalate) expect(explanation.decision).toBe(explanation.policyDecision === 'deny' ? 'deny' : 'ask');
          expect(isEscalation).toBe(escalate && explanation.decision === 'ask');
          for (const { answer, run } of runners) {
            run.install(policyDocument, riskMode);
            expect(run.executor.previewGate(tool, args).decision).toBe(explanation.decision);
            const result = await run.executor.executeToolCall({ id: 'c', name: tool, arguments: text });
            if (explanation.decision === 'allow') {
              expect(result.status).toBe('completed');
              expect(run.asked()).toBe(0);
            } else if (explanation.decision === 'deny') {
              expect(failed(result).error.code).toBe('policy_denied');
              expect(run.asked()).toBe(0);
            } else if (answer === null) {
              expect(failed(result).error.code).toBe(isEscalation ? 'escalation_unapproved' : isProtected ? 'protected_path_unapproved' : 'approval_required');
            } else {
              expect(run.asked()).toBe(1);
              const escalationConfirmed = !isEscalation || answer.confirmEscalation === true;
              const runs = escalationConfirmed && (!isProtected || answer.confirmProtected === true);
              expect(result.status).toBe(runs ? 'completed' : 'error');
              if (!runs)
                expect(failed(result).error).toMatchObject({
                  code: escalationConfirmed ? 'protected_path_unapproved' : 'escalation_unapproved',
                  approval: 'blanket',
                });
            }
          }
        },
      ),
      { numRuns: 2_000 },
    );
    // 2,000 generated policies and calls take 80-130 s on the 2-core machine kind under load: the bound
    // only keeps a hung run from stalling the suite, it is no speed assertion.
  }, 600_000);
});
