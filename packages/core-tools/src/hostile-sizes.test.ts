// Work whose size a model or a web page controls (a page's nesting, a tree of a million files, a
// glob that backtracks) never holds the event loop: every call's timeout holds, and the process
// keeps answering, whatever the tool meets.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink, ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { registerCoreTools } from './core-tools.js';
import type { CoreToolsEnvironment } from './environment.js';
import { nestedDivs, HELD_AT_MOST_MS, withEventLoopLag } from './test-support/event-loop-lag.js';
import { FileListTool, renderFileList } from './tools/file-list.js';
import { FileSearchTool, renderFileSearch } from './tools/file-search.js';
import { GlobTool, renderGlob } from './tools/glob.js';
import { WebFetchTool } from './tools/web-fetch.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';
import { stopwatch } from '../../../tools/vitest/ready-wait.mts';

/** Subtrees 128 levels deep, side by side: within the depth cap, yet readability takes half a minute over 2 MiB of them. */
const DEEP_THICKET = `<html><body>${`${'<div>'.repeat(128)}x${'</div>'.repeat(128)}`.repeat(1_500)}</body></html>`;

const PAGES: Record<string, string> = {
  '/nested-50k': nestedDivs(4_500),
  '/nested-300k': nestedDivs(27_000),
  '/nested-1m': nestedDivs(90_000),
  // Opened and never closed: the parser's stack is all there is.
  '/unclosed': `<html><body>${'<div><span><a href="#">'.repeat(80_000)}end</body></html>`,
  '/thicket': DEEP_THICKET,
};

// tmpfs where there is one: the tree below is 128,000 files.
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'tw-sizes-')));
let server: http.Server;
let base = '';
const TREE_FILES = 1_000 * 2 ** 7;

/** A tree of 1,000 empty files doubled `doublings` times, made with one `cp -r` per doubling. */
function bigTree(root: string, doublings: number): void {
  fs.mkdirSync(path.join(root, 'big', 'seed'), { recursive: true });
  for (let i = 0; i < 1_000; i++) fs.writeFileSync(path.join(root, 'big', 'seed', `f${i}.txt`), '');
  for (let i = 0; i < doublings; i++) {
    execFileSync('cp', ['-r', path.join(root, 'big'), path.join(root, 'copy')]);
    fs.renameSync(path.join(root, 'copy'), path.join(root, 'big', `copy${i}`));
  }
}

beforeAll(async () => {
  bigTree(scratch, 7);
  fs.writeFileSync(path.join(scratch, 'a'.repeat(200)), '');
  fs.mkdirSync(path.join(scratch, 'lines'));
  fs.writeFileSync(path.join(scratch, 'lines', 'many.txt'), 'hit\n'.repeat(150_000));
  server = http.createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(scratch, { recursive: true, force: true });
});

const env = (extra: Partial<CoreToolsEnvironment> = {}): CoreToolsEnvironment => ({
  workspace: new WorkspacePolicy({ root: scratch }),
  web: { allowAddresses: ['127.0.0.1'] },
  ripgrep: false,
  ...extra,
});

/** An executor over the core tools, its first call of `tool` made (the executor prepares each tool on first use, outside what is measured). */
async function executor(tool: string): Promise<ToolExecutor> {
  const registry = new ToolRegistry();
  registerCoreTools(registry, env());
  const exec = new ToolExecutor({ registry, audit: new MemoryAuditSink() });
  await exec.executeToolCall({ id: 'warm-up', name: tool, arguments: {} });
  return exec;
}

describe('web_fetch of hostile pages', () => {
  it.for(['/nested-50k', '/nested-300k', '/nested-1m', '/unclosed'])('answers %s within seconds, leaving the event loop free', async (page) => {
    const elapsed = stopwatch();
    const { value, maxLagMs } = await withEventLoopLag(() => new WebFetchTool(env()).webFetch(`${base}${page}`));
    expect(value.content).toMatch(/x|end/);
    expect(elapsed()).toBeLessThan(15_000);
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });

  it('ends with `timeout` at the call limit while the conversion runs, leaving the event loop free', async () => {
    const exec = await executor('web_fetch');
    const elapsed = stopwatch();
    const { value: result, maxLagMs } = await withEventLoopLag(() =>
      exec.executeToolCall({ id: 'c1', name: 'web_fetch', arguments: { url: `${base}/thicket` } }, { timeoutMs: 2_000 }),
    );
    expect(result).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    expect(elapsed()).toBeLessThan(4_000);
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });
});

describe('file_search over a file of 150,000 matching lines', () => {
  it.for([false, undefined] as const)('stops at 100,000 matching lines and says so (ripgrep: %s)', async (ripgrep) => {
    const result = await new FileSearchTool(env({ ripgrep })).fileSearch('hit', 'lines', false, 'smart', [], [], 0, 5);
    expect(result).toMatchObject({ truncated: true, files: 1 });
    expect(renderFileSearch(result).split('\n').at(-1)).toBe(
      '[The search stopped after 100,000 matching lines (the cap on one call), so the counts above are partial: narrow the pattern, the path or the files (include).]',
    );
  });
});

describe(`walks of a tree of ${TREE_FILES} files`, () => {
  it('glob looks at the whole tree without holding the event loop', async () => {
    const { value, maxLagMs, turns } = await withEventLoopLag(() => new GlobTool(env()).glob('**/nomatch'));
    expect(turns).toBeGreaterThanOrEqual(3); // a walk in one synchronous stretch gives the loop no turn
    expect(renderGlob(value)).toBe('[no files match]');
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });

  it('glob, file_list and file_search stop at the walk cap and say how to narrow', async () => {
    const capped = env({ maxWalkEntries: 20_000 });
    const stopped = '[stopped after looking at 20,000 entries (the cap on one call); entries further on were not looked at: ';
    const glob = await new GlobTool(capped).glob('**/nomatch');
    expect(glob.stoppedAfter).toBe(20_000);
    expect(renderGlob(glob)).toMatch(new RegExp(`^${escape(stopped)}search a subdirectory`));
    const list = await new FileListTool(capped).fileList('.', 20, ['*.txt']);
    expect(list.entries.some((entry) => entry.path.endsWith('.txt'))).toBe(false);
    expect(renderFileList(list).split('\n').at(-1)).toBe(`${stopped}list a subdirectory (path), or fewer levels (depth)]`);
    const search = await new FileSearchTool(capped).fileSearch('needle');
    expect(renderFileSearch(search)).toMatch(/^\[no matches\]\n\[The search stopped after looking at 20,000 entries \(the cap on one call\)/);
  });

  it('glob ends with `timeout` at the call limit', async () => {
    const exec = await executor('glob');
    const elapsed = stopwatch();
    const { value: result, maxLagMs } = await withEventLoopLag(() =>
      exec.executeToolCall({ id: 'c2', name: 'glob', arguments: { pattern: '**/nomatch' } }, { timeoutMs: 50 }),
    );
    expect(result).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    expect(elapsed()).toBeLessThan(1_000);
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });

  it('refuses a glob that backtracks on a long name instead of freezing the process', async () => {
    const { value, maxLagMs } = await withEventLoopLag(() =>
      new GlobTool(env())
        .glob(`${'*a'.repeat(12)}b`, '.')
        .then(() => 'matched')
        .catch((error: { code: string }) => error.code),
    );
    expect(value).toBe('pattern_too_slow');
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
