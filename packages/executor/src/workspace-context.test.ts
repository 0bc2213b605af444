import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext, type ToolCallContext } from '@toolwright/tool';
import type { ExecutorOptions } from './executor-options.js';
import { ToolExecutor } from './tool-executor.js';
import { declaration, defineTool } from './test-support/declare-tool.js';

/** What a tool's context says of the workspace, for one call through an executor with `options`. */
async function seen(options: Partial<ExecutorOptions>, context: Parameters<ToolExecutor['executeToolCall']>[1] = {}) {
  let observed: Pick<ToolCallContext, 'workspace' | 'workspaceRules'> | undefined;
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async () => {
        const { workspace, workspaceRules } = getToolContext()!;
        observed = { workspace, workspaceRules };
        return 'ok';
      },
      declaration('look', {}, { metadata: { tier: 'read-only' } }),
    ),
  );
  const result = await new ToolExecutor({ registry, ...options }).executeToolCall({ id: 'c1', name: 'look', arguments: '{}' }, context);
  expect(result.status).toBe('completed');
  return observed;
}

describe("a tool's context names the workspace and what it keeps from tools", () => {
  const rules = { protectedPaths: ['.git', '/tsconfig.json'], deniedPaths: ['secrets/**'] };

  it("hands the executor's workspace and rules to a call that names none", async () => {
    expect(await seen({ workspace: '/ws', workspaceRules: rules })).toEqual({ workspace: '/ws', workspaceRules: rules });
  });

  it("lets a call's own workspace and rules win over the executor's", async () => {
    const own = { deniedPaths: ['private/**'] };
    expect(await seen({ workspace: '/ws', workspaceRules: rules }, { workspace: '/other', workspaceRules: own })).toEqual({
      workspace: '/other',
      workspaceRules: own,
    });
  });

  it('says nothing of either where nobody set them, and the rules a tool sees cannot be changed by it', async () => {
    expect(await seen({})).toEqual({ workspace: undefined, workspaceRules: undefined });
    let frozen = false;
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        async () => {
          const seenRules = getToolContext()!.workspaceRules!;
          frozen = Object.isFrozen(seenRules) && Object.isFrozen(seenRules.protectedPaths) && Object.isFrozen(seenRules.deniedPaths);
          return 'ok';
        },
        declaration('look', {}, { metadata: { tier: 'read-only' } }),
      ),
    );
    await new ToolExecutor({ registry, workspaceRules: rules }).executeToolCall({ id: 'c2', name: 'look', arguments: '{}' });
    expect(frozen).toBe(true);
  });
});
