import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { declaration, defineTool } from '../test-support/declare-tool.js';
import { call, countingTool, setup, tempDir, type SetupOptions } from '../test-support/cache-setup.js';
import { ToolExecutor } from '../tool-executor.js';
import { sha256Hex } from '../output/normalize-output.js';

describe('OutputCache entries it cannot trust', () => {
  /** A cache folder holding one entry for `call({ text: 'a' })`, and that entry's path. */
  async function withEntry(options: SetupOptions = {}) {
    const dir = tempDir();
    const made = setup({ ...options, cache: { dir, ...options.cache } });
    await made.executor.executeToolCall(call({ text: 'a' }));
    const [name] = fs.readdirSync(dir);
    return { ...made, dir, file: path.join(dir, name!), key: name!.slice(0, 64) };
  }

  it.skipIf(process.platform === 'win32')('counts a FIFO at the entry as a miss, without waiting for a writer', async () => {
    const { executor, runs, file } = await withEntry();
    fs.rmSync(file);
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [file]);
    const result = await executor.executeToolCall(call({ text: 'a' }));
    expect(result).toMatchObject({ status: 'completed', output: { echoed: 'a' } });
    expect(result).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
    expect(fs.lstatSync(file).isFile()).toBe(true); // the FIFO was removed and the entry written anew
  });

  it('counts a directory at the entry as a miss and leaves it alone', async () => {
    const { executor, runs, file } = await withEntry();
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'keep.txt'), 'mine');
    expect(await executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ status: 'completed' });
    expect(runs.count).toBe(2);
    expect(fs.readFileSync(path.join(file, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it.skipIf(process.platform === 'win32')('never follows a link at the entry: a miss, and the target is untouched', async () => {
    const { executor, runs, file } = await withEntry();
    const target = path.join(tempDir(), 'target.json');
    fs.copyFileSync(file, target);
    fs.rmSync(file);
    fs.symlinkSync(target, file);
    expect(await executor.executeToolCall(call({ text: 'a' }))).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
    expect(fs.existsSync(target)).toBe(true);
  });

  it('counts an entry larger than maxBytes as a miss, without reading it', async () => {
    const { executor, runs, file } = await withEntry({ cache: { maxBytes: 4_000 } });
    // Still a whole, valid entry (JSON allows trailing blanks): only its size makes it a miss.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + ' '.repeat(10_000));
    expect(await executor.executeToolCall(call({ text: 'a' }))).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(2);
  });

  it('treats an entry whose output is not JSON, or not what the tool returns, as corrupt: removed, and the tool runs', async () => {
    const runs = { count: 0 };
    const registry = new ToolRegistry();
    registry.register(
      defineTool(
        async (text: string) => (runs.count++, { echoed: text }),
        declaration('r', { text: { type: 'string' } }, {
          required: ['text'],
          returns: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
          metadata: { determinism: 'pure' },
        } as never),
      ),
    );
    const dir = tempDir();
    const executor = new ToolExecutor({ registry, cache: { dir } });
    // repeatScope: false leaves the repeated-call guard out of a test that repeats one call on purpose.
    const run = () => executor.executeToolCall({ id: 'c', name: 'r', arguments: '{"text":"a"}' }, { repeatScope: false });
    await run();
    const [name] = fs.readdirSync(dir);
    const file = path.join(dir, name!);
    for (const output of ['{"echoed":', 'not json', '{"echoed":42}']) {
      const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...entry, output, outputHash: sha256Hex(output) }));
      const result = await run();
      expect(result).toMatchObject({ status: 'completed', output: { echoed: 'a' } });
      expect(result).not.toHaveProperty('cacheHit');
    }
    expect(runs.count).toBe(4);
    expect(await run()).toMatchObject({ cacheHit: 'disk' });
  });

  it('evicts only its own entries: never a foreign file, a folder or through a link', async () => {
    const dir = tempDir();
    const outside = path.join(tempDir(), 'precious.txt');
    fs.writeFileSync(outside, 'x'.repeat(5_000));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x'.repeat(5_000));
    fs.mkdirSync(path.join(dir, `${'b'.repeat(64)}.json`));
    fs.utimesSync(path.join(dir, 'notes.txt'), new Date(0), new Date(0));
    if (process.platform !== 'win32') fs.symlinkSync(outside, path.join(dir, `${'a'.repeat(64)}.json`));
    const { executor } = setup({ cache: { dir, maxBytes: 3_000 } });
    await executor.executeToolCall(call({ text: 'a', pad: 1_000 }, 'c1'));
    await executor.executeToolCall(call({ text: 'b', pad: 1_000 }, 'c2'));
    expect(fs.readFileSync(outside, 'utf8')).toHaveLength(5_000);
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dir, `${'b'.repeat(64)}.json`))).toBe(true);
    if (process.platform !== 'win32') expect(fs.lstatSync(path.join(dir, `${'a'.repeat(64)}.json`)).isSymbolicLink()).toBe(true);
  });
});

describe('OutputCache folder', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("defaults to a per-user folder outside the workspace, named by the workspace's real path", async () => {
    const workspace = tempDir();
    const cacheHome = tempDir();
    vi.stubEnv('XDG_CACHE_HOME', cacheHome);
    const registry = new ToolRegistry();
    registry.register(countingTool('x', 'pure', { count: 0 }));
    await new ToolExecutor({ registry, workspace, cache: {} }).executeToolCall(call({ text: 'a' }));
    const id = crypto.createHash('sha256').update(fs.realpathSync(workspace)).digest('hex').slice(0, 16);
    expect(fs.readdirSync(path.join(cacheHome, 'toolwright', 'outputs', id))).toHaveLength(1);
    expect(fs.existsSync(path.join(workspace, '.toolwright'))).toBe(false);
    expect(() => new ToolExecutor({ registry, cache: {} })).toThrow("ExecutorOptions.cache: give cache.dir, or the executor's workspace");
    expect(() => new ToolExecutor({ registry, workspace, cache: { maxBytes: -1 } })).toThrow('cache.maxBytes must be a positive number');
  });

  it('does not answer from entries a workspace ships in .toolwright/cache', async () => {
    const workspace = tempDir();
    vi.stubEnv('XDG_CACHE_HOME', tempDir());
    const shipped = path.join(workspace, '.toolwright', 'cache');
    const planted = setup({ cache: { dir: shipped } });
    await planted.executor.executeToolCall(call({ text: 'a' }));
    const runs = { count: 0 };
    const registry = new ToolRegistry();
    registry.register(countingTool('x', 'pure', runs));
    expect(await new ToolExecutor({ registry, workspace, cache: {} }).executeToolCall(call({ text: 'a' }))).not.toHaveProperty('cacheHit');
    expect(runs.count).toBe(1);
  });

  it.skipIf(process.platform === 'win32')('refuses a cache folder that is a symbolic link or not a folder', () => {
    const real = tempDir();
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(real, link);
    const file = path.join(tempDir(), 'file');
    fs.writeFileSync(file, '');
    const registry = new ToolRegistry();
    registry.register(countingTool('x', 'pure', { count: 0 }));
    expect(() => new ToolExecutor({ registry, cache: { dir: link } })).toThrow('is a symbolic link');
    expect(() => new ToolExecutor({ registry, cache: { dir: file } })).toThrow('is not a folder');
  });

  it('counts a folder it cannot create as no cache, never as a failed call', async () => {
    const dir = tempDir();
    const blocked = path.join(dir, 'file-not-dir');
    fs.writeFileSync(blocked, '');
    const { executor, runs } = setup({ cache: { dir: path.join(blocked, 'cache') } });
    expect(await executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ status: 'completed' });
    expect(await executor.executeToolCall(call({ text: 'a' }))).toMatchObject({ status: 'completed' });
    expect(runs.count).toBe(2);
  });
});
