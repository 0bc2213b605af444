import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { registerCoreTools, WorkspacePolicy } from '@toolwright/core-tools';
import { deniedPathsOf, READING_TOOL_SUBJECTS } from './denied-paths.js';

describe(deniedPathsOf, () => {
  it.for([
    ['*(secrets/**)', ['secrets/**']],
    ['file_*(secrets/**)', ['secrets/**']],
    ['file_read(secrets/**)', ['secrets/**']],
    ['file_read(path=**/*.key)', ['**/*.key']],
    ['file_{read,list}(.env)', ['.env']],
    ['file_search(path=vault)', ['vault']],
    ['glob(path=vault)', ['vault']],
    ['private:/x', []],
    ['file_read(private:/deploy/token)', ['deploy/token']],
    ['file_read(shared:/notes/**)', []],
    ['file_read', []],
    ['*', []],
    ['file_write(secrets/**)', []],
    ['file_delete(secrets/**)', []],
    ['shell_exec(*secrets*)', []],
    ['file_search(secrets/**)', []],
    ['glob(**/*.key)', []],
    ['file_search(pattern=API_KEY)', []],
    ['web_fetch(url=https://*)', []],
  ] as const)('deny %s hides %j', ([rule, expected]) => {
    expect(deniedPathsOf({ rules: [{ deny: rule }] })).toEqual(expected);
  });

  it('reads only deny rules, skips rules that do not parse, and lists each pattern once', () => {
    const rules = [{ allow: 'file_read(src/**)' }, { ask: 'file_read(docs/**)' }, { deny: 'file_read(a' }, { deny: '*(a/**)' }, { deny: 'file_read(a/**)' }];
    expect(deniedPathsOf({ rules } as never)).toEqual(['a/**']);
    expect(deniedPathsOf(undefined)).toEqual([]);
    expect(deniedPathsOf({ rules: 'nope' } as never)).toEqual([]);
  });

  it("knows each reading tool's subject as its declaration states it", () => {
    const registry = new ToolRegistry();
    registerCoreTools(registry, { workspace: new WorkspacePolicy({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ws-')) }) });
    for (const [tool, subject] of Object.entries(READING_TOOL_SUBJECTS)) {
      const declaration = registry.get(tool)!.declaration;
      // Each argument holds its own name: a rule `tool(name)` denies the call only when `name` is the subject.
      const args = Object.fromEntries(declaration.parameterOrder.map((name) => [name, name]));
      for (const candidate of ['path', 'pattern']) {
        const policy = loadPolicy({ rules: [{ deny: `${tool}(${candidate})` }], default: 'allow' });
        expect(policy.decide({ tool, args, declaration }).effect, `${tool}(${candidate})`).toBe(subject === candidate ? 'deny' : 'allow');
      }
    }
  });
});
