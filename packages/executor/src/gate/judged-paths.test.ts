import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext, type JudgedPaths } from '@toolwright/tool';
import { ToolExecutor } from '../tool-executor.js';
import { loadPolicy } from '../policy/policy.js';
import type { ExecutorOptions } from '../executor-options.js';
import { declaration, defineTool } from '../test-support/declare-tool.js';

// The tool is told what the gate judged its paths by (`judgedPaths`), so that it can hold the file it
// really touches to that judgement when it resolves the path again.

function setup(options: Partial<ExecutorOptions>) {
  const seen: (JudgedPaths | undefined)[] = [];
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async (path: string, content: string) => {
        seen.push(getToolContext()?.judgedPaths);
        return `${path}:${content.length}`;
      },
      declaration('file_write', { path: { type: 'string' }, content: { type: 'string' } }, { required: ['path', 'content'] }),
    ),
  );
  const executor = new ToolExecutor({ registry, doomLoop: false, ...options });
  const run = (args: Record<string, unknown>) => executor.executeToolCall({ id: 'c', name: 'file_write', arguments: args });
  return { seen, run };
}

describe('judgedPaths in the tool context', () => {
  it("carries the spellings the host's resolver gave the policy's path rules, and the protected paths the approval covered", async () => {
    const policy = loadPolicy({ rules: [{ deny: 'file_write(secrets/**)' }] }, () =>
      declaration('file_write', { path: { type: 'string' }, content: { type: 'string' } }, { required: ['path', 'content'] }),
    );
    const { seen, run } = setup({
      policy,
      pathResolvers: { file_write: (_argument, value) => (value === 'link' ? ['link', '.git/config'] : [value]) },
      riskLevel: { file_write: (args) => (args.path === 'link' ? { level: 'risky', reason: 'protected', protectedPaths: ['.git/config'] } : 'safe') },
      approve: async () => ({ kind: 'once', confirmProtected: true }),
    });
    expect((await run({ path: 'link', content: 'x' })).status).toBe('completed');
    expect(seen[0]).toEqual({ resolved: { path: ['link', '.git/config'] }, protectedPaths: ['.git/config'] });
  });

  it('names no argument no rule looked at, and no protected paths for a tool without a risk hook (then nothing at all)', async () => {
    const { seen, run } = setup({ pathResolvers: { file_write: (_argument, value) => [value] } });
    expect((await run({ path: 'a.txt', content: 'x' })).status).toBe('completed');
    expect(seen[0]).toBeUndefined();
    const hooked = setup({ riskLevel: { file_write: () => 'safe' } });
    expect((await hooked.run({ path: 'a.txt', content: 'x' })).status).toBe('completed');
    expect(hooked.seen[0]).toEqual({ resolved: {}, protectedPaths: [] });
  });
});
