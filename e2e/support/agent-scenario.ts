import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '@toolwright/registry';
import { MemoryAuditSink, ToolExecutor, loadPolicy, type ExecutorOptions } from '@toolwright/executor';
import { WorkspacePolicy, registerCoreTools } from '@toolwright/core-tools';

/**
 * The scenario the framework adapters are driven through: a temp workspace with notes.txt, the core
 * tools, and a policy that denies file_delete. `cleanup()` removes every workspace made.
 */
export function agentScenario(label: string) {
  const made: string[] = [];
  return {
    setup(options: Partial<ExecutorOptions> = {}) {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tw-${label}-`)));
      made.push(root);
      fs.writeFileSync(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
      const registry = new ToolRegistry();
      registerCoreTools(registry, { workspace: new WorkspacePolicy({ root }) });
      const audit = new MemoryAuditSink();
      const executor = new ToolExecutor({
        registry,
        audit,
        policy: loadPolicy({ rules: [{ deny: 'file_delete', reason: 'the notes are kept' }] }),
        ...options,
      });
      return { root, audit, executor };
    },
    cleanup() {
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
