import fs from 'node:fs';
import { getToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import os from 'node:os';
import { ToolRegistry, toAnthropicTools, toGeminiFunctionDeclarations, toMcpTools, toOpenAIChatTools } from '@toolwright/registry';
import { CORE_TOOLKITS, registerCoreTools } from './core-tools.js';
import { META_TOOLKITS } from './meta-tools.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';

/** Every core and meta tool class; each method decorated with @tool() is one tool. */
const TOOL_CLASSES = [...CORE_TOOLKITS, ...META_TOOLKITS];

function declarationsOf(toolClass: { prototype: object }): ToolDeclaration[] {
  return Object.getOwnPropertyNames(toolClass.prototype)
    .map((key) => getToolDeclaration(Object.getOwnPropertyDescriptor(toolClass.prototype, key)?.value))
    .filter((d): d is ToolDeclaration => d !== undefined);
}

describe('core tool declarations ("what the model sees")', () => {
  const declarations = TOOL_CLASSES.flatMap(declarationsOf).sort((a, b) => (a.name < b.name ? -1 : 1));

  it('every tool carries a declaration with tier, side effects, capabilities and a timeout', () => {
    for (const d of declarations) {
      expect(d.metadata.sideEffects.length, d.name).toBeGreaterThan(0);
      expect(d.metadata.capabilities.length, d.name).toBeGreaterThan(0);
      expect(d.description.length, d.name).toBeGreaterThan(80);
    }
    expect(declarations.map((d) => d.name)).toEqual([
      'file_delete',
      'file_edit',
      'file_list',
      'file_read',
      'file_search',
      'file_write',
      'glob',
      'shell_exec',
      'shell_job_kill',
      'shell_job_output',
      'tool_search',
      'vault_copyto',
      'web_fetch',
      'web_search',
    ]);
  });

  it('matches the pinned declarations', async () => {
    const pinned = declarations.map(({ source, ...rest }) => ({ ...rest, source: { ...source, line: undefined } }));
    await expect(`${JSON.stringify(pinned, null, 2)}\n`).toMatchFileSnapshot(path.join(__dirname, '__snapshots__', 'declarations.json'));
  });

  it.each([
    ['openai', () => toOpenAIChatTools(declarations)],
    ['openai-strict', () => toOpenAIChatTools(declarations, { strict: true })],
    ['anthropic', () => toAnthropicTools(declarations)],
    ['gemini', () => toGeminiFunctionDeclarations(declarations)],
    ['mcp', () => toMcpTools(declarations)],
  ])('matches the pinned %s export', async (format, exported) => {
    await expect(`${JSON.stringify(exported(), null, 2)}\n`).toMatchFileSnapshot(path.join(__dirname, '__snapshots__', `export.${format}.json`));
  });
});

describe('what the model reads back', () => {
  it('every core tool renders its output as text for the model', () => {
    const registry = new ToolRegistry();
    const tools = registerCoreTools(registry, { workspace: new WorkspacePolicy({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ws-')) }) });
    expect(tools.filter((t) => typeof t.renderForModel !== 'function').map((t) => t.declaration.name)).toEqual([]);
  });
});
