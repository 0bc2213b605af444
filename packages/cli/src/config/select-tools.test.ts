import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { selectTools } from './select-tools.js';

function registry(names: readonly string[]): ToolRegistry {
  const result = new ToolRegistry();
  for (const name of names) {
    result.register(
      attachToolDeclaration(async () => name, {
        name,
        description: `The ${name} tool.`,
        parameterOrder: [],
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        metadata: { tier: 'read-only', timeoutMs: 1000, sideEffects: [], capabilities: [], determinism: 'pure', resources: {}, parallel: true, tags: [] },
      } as unknown as ToolDeclaration),
    );
  }
  return result;
}

const NAMES = ['file_read', 'file_write', 'file_delete', 'shell_exec', 'web_fetch', 'web_search'];

describe(selectTools, () => {
  it.for<[Parameters<typeof selectTools>[1], string[]]>([
    [{}, NAMES],
    [{ include: ['file_*'] }, ['file_read', 'file_write', 'file_delete']],
    [{ exclude: ['web_*', 'file_delete'] }, ['file_read', 'file_write', 'shell_exec']],
    [{ include: ['file_*', 'web_{fetch,search}'], exclude: ['*_delete'] }, ['file_read', 'file_write', 'web_fetch', 'web_search']],
    [{ include: [] }, []],
  ])('keeps %j → %j', ([tools, kept]) => {
    const selected = registry(NAMES);
    selectTools(selected, tools);
    expect(selected.names().sort()).toEqual([...kept].sort());
  });
});
