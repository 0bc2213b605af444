// The core tools as the model meets them: through the executor, with its output budget and truncation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { registerCoreTools } from './core-tools.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-through-executor-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const LINES = 3000;
fs.writeFileSync(path.join(root, 'long.txt'), Array.from({ length: LINES }, (_, i) => `line ${i + 1}: ${'word '.repeat(i % 13)}`).join('\n'));

function executor(maxOutputChars: number): ToolExecutor {
  const registry = new ToolRegistry();
  registerCoreTools(registry, { workspace: new WorkspacePolicy({ root }), ripgrep: false });
  return new ToolExecutor({ registry, audit: new MemoryAuditSink(), maxOutputChars });
}

describe('file_read through the executor', () => {
  it.for([2_000, 16 * 1024])('reads a %i-character budget of numbered lines per call and, following its own hint, every line exactly once', async (budget) => {
    const exec = executor(budget);
    const seen: number[] = [];
    let offset = 1;
    for (let call = 0; call < LINES; call++) {
      const result = await exec.executeToolCall({ id: `c${call}`, name: 'file_read', arguments: { path: 'long.txt', offset } });
      expect(result.status).toBe('completed');
      // The tool fitted its page to the budget: the executor's safety net never had to cut.
      expect(result.truncated).toBe(false);
      expect(result.content.length).toBeLessThanOrEqual(budget);
      const lines = result.content.split('\n');
      const last = lines.at(-1)!;
      for (const line of lines.slice(0, -1)) seen.push(Number(/^(\d+)\t/.exec(line)![1]));
      const next = /read on with offset (\d+)\]$/.exec(last);
      if (!next) {
        expect(last).toMatch(new RegExp(`^\\[lines \\d+–${LINES} of ${LINES}; this is the end of the file\\]$`));
        break;
      }
      offset = Number(next[1]);
    }
    expect(seen).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
  });
});
