// Found by a twelfth pass: file_search ran ripgrep on the host, and ripgrep follows links and opens special files
// by name when it reads a `.gitignore` — `.gitignore -> /dev/zero` grew the host's rg by hundreds of MB a second
// (and answered "[no matches]"), a link to a file outside made rg read it (an oracle through what it ignored), a
// FIFO blocked it until the timeout. The class: ripgrep now runs only in the kernel sandbox, with a reader's view.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeLaunchDescriptors, launchStdio, probeSandbox } from '@toolwright/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { FileSearchTool } from '../tools/file-search.js';
import { writeInput } from '../shell/run-process.js';
import { findRipgrep, ripgrepSearch } from './ripgrep-search.js';
import { GITIGNORE_REFUSED, SearchSandbox, STATUS_OFFSET } from './search-sandbox.js';
import type { SearchQuery } from './search-query.js';

const support = await probeSandbox();
const rg = findRipgrep();
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-rg-outside-'));
fs.writeFileSync(path.join(outside, 'patterns'), '*.txt\nsrc/\n');
fs.writeFileSync(path.join(outside, 'marker'), 'OUTSIDE-MARKER\n');
afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

const FILES = { 'a.txt': 'needle in a\n', 'src/b.ts': 'const needle = 1;\n', 'dist/c.js': 'needle in dist\n', 'dist/.gitignore': 'x\n' };

/** The workspace with `.gitignore` (at the root and in `src/`) made by `make`, searched by both engines. */
async function searchWith(name: '.gitignore' | '.ignore', make: (at: string) => void) {
  const ws = tempWorkspace(FILES);
  try {
    make(path.join(ws.root, name));
    make(path.join(ws.root, 'src', name));
    const search = (ripgrep: string | false) => new FileSearchTool({ ...ws.env, ...(ripgrep === false ? { ripgrep } : {}) }).fileSearch('needle');
    return { found: await search(rg || false), builtin: await search(false) };
  } finally {
    ws.cleanup();
  }
}

const EXPECTED = ['a.txt:1', 'dist/c.js:1', 'src/b.ts:1'];

describe('file_search with a .gitignore that is no plain file', () => {
  it('a link to /dev/zero: the search ends with the right matches', async () => {
    const { found, builtin } = await searchWith('.gitignore', (at) => fs.symlinkSync('/dev/zero', at));
    expect(found.matches.map((m) => `${m.path}:${m.line}`)).toEqual(EXPECTED);
    expect({ ...found, engine: 'x' }).toEqual({ ...builtin, engine: 'x' });
  });

  it('a link to a file outside the workspace: it is not read (its patterns do not apply)', async () => {
    const { found } = await searchWith('.gitignore', (at) => fs.symlinkSync(path.join(outside, 'patterns'), at));
    expect(found.matches.map((m) => `${m.path}:${m.line}`)).toEqual(EXPECTED);
  });

  it.each(['.gitignore', '.ignore'] as const)('a FIFO named %s does not block the search', async (name) => {
    const { found } = await searchWith(name, (at) => spawnSync('mkfifo', [at]));
    expect(found.matches.map((m) => `${m.path}:${m.line}`)).toEqual(EXPECTED);
  });

  it('a plain .gitignore is honoured as before, by ripgrep where it runs', async () => {
    const { found, builtin } = await searchWith('.gitignore', (at) => fs.writeFileSync(at, 'dist/\n'));
    expect(found.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['a.txt:1', 'src/b.ts:1']);
    expect({ ...found, engine: 'x' }).toEqual({ ...builtin, engine: 'x' });
    if (rg && support.available) expect(found.engine).toBe('ripgrep');
  });
});

describe.runIf(support.available)('ripgrep in the sandbox', () => {
  const ws = tempWorkspace({ 'a.txt': 'needle\n', 'secrets/key.pem': 'SECRET-KEY\n' });
  afterAll(() => ws.cleanup());
  const workspace = new WorkspacePolicy({ root: ws.root, deniedPaths: ['secrets/**'] });
  const sandbox = new SearchSandbox(workspace, 'auto');

  /** Runs `/bin/sh -c script` as the sandbox runs ripgrep; its exit status as the program's own. */
  async function inSandbox(script: string): Promise<{ status: number | null; stdout: string }> {
    const run = await sandbox.start('/bin/sh', ['-c', script], ws.root);
    expect(run).toBeDefined();
    const { launch, release } = run!;
    const child = spawn(launch.file, launch.args, { cwd: '/', stdio: launchStdio(launch, ['ignore', 'pipe', 'pipe', 'ignore']) });
    closeLaunchDescriptors(launch);
    writeInput(child, launch);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    release();
    return { status: code === null ? null : code - STATUS_OFFSET, stdout };
  }

  it('starts it through bubblewrap, never on the host', async () => {
    const run = await sandbox.start('/bin/true', [], ws.root);
    expect([run!.launch.file, ...run!.launch.args]).toContain(support.available ? support.path : '');
    run!.release();
  });

  it('shows it no devices, no /proc, nothing outside, the workspace read-only and denied files empty', async () => {
    const probe = [
      'test -e /dev/zero && echo dev-zero',
      'test -e /proc/self/fd/1 && echo proc-fd',
      `cat ${path.join(outside, 'marker')} | grep -q OUTSIDE-MARKER && echo outside`,
      'echo x > written && echo wrote',
      'grep -q SECRET-KEY secrets/key.pem && echo secret',
      'grep -q needle a.txt && echo workspace',
    ].join('; ');
    expect(await inSandbox(`${probe}; exit 0`)).toEqual({ status: 0, stdout: 'workspace\n' });
    expect(fs.existsSync(path.join(ws.root, 'written'))).toBe(false);
  });

  it.each([
    ['a link', (at: string) => fs.symlinkSync('/dev/zero', at)],
    ['a FIFO', (at: string) => spawnSync('mkfifo', [at])],
    ['an oversized file', (at: string) => fs.writeFileSync(at, Buffer.alloc((1 << 20) + 1, 0x0a))],
  ])('refuses to run ripgrep where a .gitignore is %s (the built-in engine searches)', async (_, make) => {
    const deeper = path.join(ws.root, 'deep', 'er');
    fs.mkdirSync(deeper, { recursive: true });
    make(path.join(deeper, '.gitignore'));
    try {
      expect((await inSandbox('exit 0')).status).toBe(GITIGNORE_REFUSED - STATUS_OFFSET);
      if (rg) {
        const query: SearchQuery = { pattern: 'needle', literal: true, caseMode: 'smart', include: [], exclude: [], maxFileBytes: 1 << 20 };
        expect(await ripgrepSearch(rg, ws.root, query, sandbox)).toBeUndefined();
      }
    } finally {
      fs.rmSync(path.join(ws.root, 'deep'), { recursive: true, force: true });
    }
  });

  it('uses no sandbox, and so no ripgrep, when the shell turns it off', async () => {
    expect(await new SearchSandbox(workspace, 'off').start('/bin/true', [], ws.root)).toBeUndefined();
  });
});
