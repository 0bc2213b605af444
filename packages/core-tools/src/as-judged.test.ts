// The class: a decision about which file a call touches holds for the file it really touches. The gate
// (policy path rules, the risk hook's protected paths) resolves the path; the tool resolves it again when
// it writes, edits or deletes. Here a link on the way is flipped deterministically in between — by the
// approver, which runs after the policy and the risk hook have judged the call and before the tool — so
// `d/policy.json` is judged as the decoy `a/policy.json` and would be used as the protected `policy.json`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicy, ToolExecutor, type ApprovalAnswer, type ToolCallResult } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { coreToolsRiskLevels, registerCoreTools } from './core-tools.js';
import { coreToolsPathResolvers } from './path-resolvers.js';
import { failed } from './test-support/call-results.js';
import { DEFAULT_PROTECTED_PATHS, WorkspacePolicy } from './workspace/workspace-policy.js';

const ORIGINAL = 'OLD original content\n';
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/**
 * A workspace where `policy.json` is protected by location (`/policy.json`, as the CLI anchors its
 * `--policy` file) and, with `denyRules`, `prot/**` is denied to every writer by policy; `a/` holds a
 * decoy of each, and the link `d` leads to `a` (the decoys). `flip` re-points `d` at the root (the real targets).
 */
function setUp(approve: (flip: () => void) => ApprovalAnswer, denyRules = false) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-as-judged-')));
  roots.push(root);
  for (const file of ['policy.json', 'prot/target.txt', 'a/policy.json', 'a/prot/target.txt']) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), ORIGINAL);
  }
  fs.symlinkSync('a', path.join(root, 'd'));
  const flip = () => {
    fs.unlinkSync(path.join(root, 'd'));
    fs.symlinkSync('.', path.join(root, 'd'));
  };
  const env = { workspace: new WorkspacePolicy({ root, protectedPaths: [...DEFAULT_PROTECTED_PATHS, '/policy.json'] }), ripgrep: false as const };
  const registry = new ToolRegistry();
  registerCoreTools(registry, env);
  const rules = ['file_write', 'file_edit', 'file_delete'].map((tool) => ({ deny: `${tool}(prot/**)` }));
  const executor = new ToolExecutor({
    registry,
    ...(denyRules ? { policy: loadPolicy({ rules }, (name) => registry.get(name)?.declaration) } : {}),
    riskLevel: coreToolsRiskLevels(env),
    pathResolvers: coreToolsPathResolvers(env),
    riskMode: 'autorun_none', // every side-effecting call is asked about: the approver is the hook between gate and tool
    approve: async () => approve(flip),
    doomLoop: false,
  });
  let id = 0;
  const run = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => executor.executeToolCall({ id: `c${id++}`, name, arguments: args });
  return { root, run, read: (file: string) => fs.readFileSync(path.join(root, file), 'utf8') };
}

const CALLS = [
  { tool: 'file_write', args: (file: string) => ({ path: file, content: 'PWNED\n' }) },
  { tool: 'file_edit', args: (file: string) => ({ path: file, oldText: 'OLD', newText: 'PWNED' }) },
  { tool: 'file_delete', args: (file: string) => ({ path: file }) },
] as const;

const TARGETS = [
  // No path rule: the risk hook's protected paths alone were judged.
  { kind: 'a location-protected file', file: 'policy.json', denyRules: false, why: 'the protected path policy.json, which the approval did not cover' },
  { kind: 'a path a policy rule denies', file: 'prot/target.txt', denyRules: true, why: 'prot/target.txt, which the policy did not judge' },
] as const;

describe('a link flipped between the gate and the tool', () => {
  for (const { tool, args } of CALLS) {
    for (const { kind, file, denyRules, why } of TARGETS) {
      it(`${tool} judged as the decoy a/${file} is refused when it would reach ${kind} (${file}), which stays unchanged`, async () => {
        const { run, read } = setUp((flip) => {
          flip(); // the gate has judged `d/…` as `a/…`; from now on it means the protected or denied file
          return { kind: 'once' }; // blanket approval, as `--yes` answers: it never covers a protected path
        }, denyRules);
        const result = await run(tool, args(`d/${file}`));
        expect(result.status).toBe('error');
        expect(failed(result).error).toMatchObject({ code: 'tool_failed', errorCode: 'changed_during_use' });
        expect(result.content).toContain(`it now leads to ${why}`);
        expect(read(file)).toBe(ORIGINAL);
      });
    }

    it(`${tool} through a link that holds still runs: the check refuses only a file nobody judged`, async () => {
      const { run, read } = setUp(() => ({ kind: 'once' }), true);
      expect((await run(tool, args('d/policy.json'))).status).toBe('completed');
      expect((await run(tool, args('d/prot/target.txt'))).status).toBe('completed');
      expect(read('policy.json')).toBe(ORIGINAL);
      expect(read('prot/target.txt')).toBe(ORIGINAL);
    });
  }

  it('a protected path the approval named is used as approved; a flip to another protected path is refused', async () => {
    const confirmed = setUp(() => ({ kind: 'once', confirmProtected: true }));
    fs.unlinkSync(path.join(confirmed.root, 'd'));
    fs.symlinkSync('.', path.join(confirmed.root, 'd'));
    expect((await confirmed.run('file_write', { path: 'd/policy.json', content: 'approved\n' })).status).toBe('completed');
    expect(confirmed.read('policy.json')).toBe('approved\n');

    // Approved for `a/.env` (protected by name): the flip makes it `.env`, a protected path nobody approved.
    const other = setUp((flip) => {
      flip();
      return { kind: 'once', confirmProtected: true };
    });
    fs.writeFileSync(path.join(other.root, '.env'), ORIGINAL);
    const result = await other.run('file_write', { path: 'd/.env', content: 'PWNED\n' });
    expect(failed(result).error).toMatchObject({ errorCode: 'changed_during_use' });
    expect(result.content).toContain('it now leads to the protected path .env, which the approval did not cover');
    expect(other.read('.env')).toBe(ORIGINAL);
  });
});
