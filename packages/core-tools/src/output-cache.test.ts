import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { registerCoreTools } from './core-tools.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-core-cache-')));
  dirs.push(dir);
  return dir;
}

/** The core tools behind an executor with the output cache on; every call in one session, where memory caching applies. */
function setup() {
  const root = tempDir();
  const registry = new ToolRegistry();
  registerCoreTools(registry, { workspace: new WorkspacePolicy({ root }), ripgrep: false });
  const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink(), workspace: root, cache: { dir: tempDir() } });
  let id = 0;
  const call = (name: string, args: Record<string, unknown>) => executor.executeToolCall({ id: `c${++id}`, name, arguments: args }, { sessionId: 's1' });
  return { root, call };
}

describe('the output cache with the core file tools', () => {
  it('writes again on a second identical file_write', async () => {
    const { root, call } = setup();
    const file = path.join(root, 'a.txt');
    expect(await call('file_write', { path: 'a.txt', content: 'abc' })).toMatchObject({ status: 'completed' });
    fs.writeFileSync(file, 'changed by someone else');
    const again = await call('file_write', { path: 'a.txt', content: 'abc' });
    expect(again).not.toHaveProperty('cacheHit');
    expect(fs.readFileSync(file, 'utf8')).toBe('abc');
  });

  it('deletes again on a second identical file_delete', async () => {
    const { root, call } = setup();
    const file = path.join(root, 'gone.txt');
    fs.writeFileSync(file, 'x');
    expect(await call('file_delete', { path: 'gone.txt' })).toMatchObject({ status: 'completed' });
    fs.writeFileSync(file, 'back');
    const again = await call('file_delete', { path: 'gone.txt' });
    expect(again).toMatchObject({ status: 'completed' });
    expect(again).not.toHaveProperty('cacheHit');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('edits again on a second identical file_edit', async () => {
    const { root, call } = setup();
    const file = path.join(root, 'e.txt');
    fs.writeFileSync(file, 'one');
    await call('file_read', { path: 'e.txt' });
    expect(await call('file_edit', { path: 'e.txt', oldText: 'one', newText: 'two' })).toMatchObject({ status: 'completed' });
    fs.writeFileSync(file, 'one');
    await call('file_read', { path: 'e.txt' });
    const again = await call('file_edit', { path: 'e.txt', oldText: 'one', newText: 'two' });
    expect(again).not.toHaveProperty('cacheHit');
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
  });

  it('reads the file as it is now, not as it was', async () => {
    const { root, call } = setup();
    fs.writeFileSync(path.join(root, 'r.txt'), 'first version');
    expect(JSON.stringify(await call('file_read', { path: 'r.txt' }))).toContain('first version');
    fs.writeFileSync(path.join(root, 'r.txt'), 'second version');
    const again = await call('file_read', { path: 'r.txt' });
    expect(again).not.toHaveProperty('cacheHit');
    expect(JSON.stringify(again)).toContain('second version');
  });

  it('lists and searches the tree as it is now', async () => {
    const { root, call } = setup();
    fs.writeFileSync(path.join(root, 'one.txt'), 'needle');
    await call('file_list', {});
    await call('file_search', { pattern: 'needle' });
    fs.writeFileSync(path.join(root, 'two.txt'), 'needle');
    const listed = await call('file_list', {});
    const found = await call('file_search', { pattern: 'needle' });
    expect(listed).not.toHaveProperty('cacheHit');
    expect(found).not.toHaveProperty('cacheHit');
    expect(JSON.stringify(listed)).toContain('two.txt');
    expect(JSON.stringify(found)).toContain('two.txt');
  });
});
