import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { FileDeleteTool } from '../tools/file-delete.js';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());

/** A tree of `count` empty files, 500 to a folder. */
function tree(name: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const dir = path.join(ws.root, name, `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}`), '');
  }
}

function remaining(name: string): number {
  if (!fs.existsSync(path.join(ws.root, name))) return 0;
  return fs.readdirSync(path.join(ws.root, name), { recursive: true }).length;
}

// A model sizes the tree it deletes (four `cp -r` calls make a million files): the removal must leave the event loop
// free for every other call, and stop — leaving the rest — when its call is cancelled or runs out of time.
describe('file_delete of a large tree', () => {
  it('lets other work run while it removes, and removes the whole tree', async () => {
    tree('big', 20_000);
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 1);
    try {
      const signal = new AbortController().signal;
      const context = toolContext({ toolName: 'file_delete', sessionId: 's', signal });
      const result = await runWithToolContext(context, () => new FileDeleteTool(ws.env).fileDelete('big', true));
      expect(result).toEqual({ path: 'big', kind: 'directory' });
    } finally {
      clearInterval(ticker);
    }
    expect(remaining('big')).toBe(0);
    expect(ticks).toBeGreaterThan(1); // the interval ran while the tree was removed
  });

  it('stops when its call is cancelled, leaving what it had not removed', async () => {
    tree('cancelled', 20_000);
    const controller = new AbortController();
    const context = toolContext({ toolName: 'file_delete', sessionId: 's', signal: controller.signal });
    const deleting = runWithToolContext(context, () => new FileDeleteTool(ws.env).fileDelete('cancelled', true));
    setImmediate(() => controller.abort(new Error('the call was cancelled')));
    await expect(deleting).rejects.toThrow('the call was cancelled');
    const left = remaining('cancelled');
    expect(left).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(remaining('cancelled')).toBe(left); // nothing more is removed after the stop
  });
});
