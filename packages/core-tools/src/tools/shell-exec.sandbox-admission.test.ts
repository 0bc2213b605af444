// How many sandboxed commands one host runs at once. The limits of one command bound that command only: a twelfth
// pass ran 30 at once from one MCP client, five of them using 5.3–6.7 GiB together. Each may use up to its memory
// limit, and together they may use the machine's memory at most (at least two at once).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { ShellTool, type ShellJobStarted, type ShellResult } from './shell-exec.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-admission-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true, maxRetries: 10 }));

describe.skipIf(!support.available)('sandboxed commands at once', () => {
  it("refuses a command beyond what the machine's memory holds at each one's limit, and admits one again when another ends", async () => {
    // Half the machine's memory each: two at once.
    const memoryBytes = Math.floor(os.totalmem() / 2);
    const tool = new ShellTool({
      workspace: new WorkspacePolicy({ root }),
      shell: { backend: 'host', policy: { allow: ['sleep', 'echo'] }, timeoutMs: 20_000, limits: { memoryBytes } } as ShellConfig,
    });
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    const call = <T>(body: () => Promise<T>) => runWithToolContext(context, body);
    try {
      const first = (await call(() => tool.shellExec('sleep 30', 30, true))) as ShellJobStarted;
      const second = (await call(() => tool.shellExec('sleep 30', 30, true))) as ShellJobStarted;
      await expect(call(() => tool.shellExec('echo third', 10))).rejects.toThrow(
        /not run: 2 sandboxed commands are running in this Toolwright process already, the most at once .* stop a background job with shell_job_kill/,
      );
      await call(() => tool.shellJobKill(first.jobId));
      // The killed job's sandbox is let go of once its processes are gone.
      let admitted: ShellResult | undefined;
      for (let i = 0; i < 50 && !admitted; i++) {
        admitted = (await call(() => tool.shellExec('echo again', 10)).catch(() => undefined)) as ShellResult | undefined;
        if (!admitted) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(admitted?.stdout).toBe('again\n');
      await call(() => tool.shellJobKill(second.jobId));
    } finally {
      tool.dispose();
    }
  });
});
