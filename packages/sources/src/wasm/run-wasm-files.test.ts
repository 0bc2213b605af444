import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { HostStatus } from './host-status.js';
import { runWasm } from './run-wasm.js';
import { liveWorkerCount, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmRequest, type WasmCall } from './test-support/wasm-request.js';

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-wasm-files-')));
const workspace = path.join(temporary, 'workspace');
const outside = path.join(temporary, 'outside');
const unique = `tw-wasm-escape-${process.pid}-${Date.now()}`;

beforeAll(async () => {
  fs.mkdirSync(path.join(workspace, 'docs'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(workspace, 'docs', 'notes.txt'), 'inside the workspace\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside the workspace\n');
  fs.symlinkSync(outside, path.join(workspace, 'out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'secret-link.txt'));
  await buildWasmModules();
}, 120_000);
afterAll(async () => {
  fs.rmSync(temporary, { recursive: true, force: true });
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

function files(input: Record<string, unknown>, call: WasmCall = {}): Promise<unknown> {
  return runWasm(wasmRequest(testModule('files'), { workspace, tier: 'side-effecting', ...call, input }));
}

/** Every file under `dir`, relative to it. */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe('runWasm file access', () => {
  it('lets a read-only tool read a file of its workspace', async () => {
    await expect(files({ op: 'read', path: 'docs/notes.txt' }, { tier: 'read-only' })).resolves.toEqual({ code: 0, content: 'inside the workspace\n' });
  });

  it('lets a side-effecting tool write a file inside its workspace, creating its folder', async () => {
    await expect(files({ op: 'write', path: 'reports/out.json', text: '{"ok":true}' })).resolves.toEqual({ code: 0 });
    expect(fs.readFileSync(path.join(workspace, 'reports', 'out.json'), 'utf8')).toBe('{"ok":true}');
  });

  it.for([
    ['a relative path that climbs out', `../../../../etc/${unique}`],
    ['an absolute path outside', path.join(os.tmpdir(), unique)],
    ['a path through a linked folder that leads out', `out/${unique}`],
    ['a link to a file outside', 'secret-link.txt'],
    ['a protected path', '.env'],
  ])('refuses to write %s, and nothing appears outside', async ([, target]) => {
    const before = listing(outside);
    await expect(files({ op: 'write', path: target, text: 'escaped' })).resolves.toEqual({ code: HostStatus.denied });
    expect(listing(outside)).toEqual(before);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
    expect(fs.existsSync(`/etc/${unique}`)).toBe(false);
    expect(fs.existsSync(path.join(os.tmpdir(), unique))).toBe(false);
    expect(fs.existsSync(path.join(workspace, '.env'))).toBe(false);
  });

  it.for([
    ['a relative path that climbs out', '../outside/secret.txt'],
    ['an absolute path outside', path.join(outside, 'secret.txt')],
    ['a link to a file outside', 'secret-link.txt'],
    ['a path through a linked folder that leads out', 'out/secret.txt'],
  ])('refuses to read %s', async ([, target]) => {
    await expect(files({ op: 'read', path: target }, { tier: 'read-only' })).resolves.toEqual({ code: HostStatus.denied });
  });

  it('does not let a read-only tool write inside its workspace', async () => {
    await expect(files({ op: 'write', path: 'docs/new.txt', text: 'x' }, { tier: 'read-only' })).resolves.toEqual({ code: HostStatus.denied });
    expect(fs.existsSync(path.join(workspace, 'docs', 'new.txt'))).toBe(false);
  });

  it('refuses every file to a call without a workspace', async () => {
    await expect(runWasm(wasmRequest(testModule('files'), { input: { op: 'read', path: path.join(workspace, 'docs', 'notes.txt') } }))).resolves.toEqual({
      code: HostStatus.denied,
    });
  });

  it('answers not found for a missing file', async () => {
    await expect(files({ op: 'read', path: 'docs/missing.txt' })).resolves.toEqual({ code: HostStatus.notFound });
  });

  it('reports access_denied, with what was refused, when the module fails after a refusal', async () => {
    await expect(files({ op: 'write', path: 'docs/new.txt', text: 'x', strict: true }, { tier: 'read-only' })).rejects.toMatchObject({
      code: 'access_denied',
      message: expect.stringMatching(/refused write 'docs\/new.txt': the tool is read-only.*then it failed: write refused: -1/),
    });
  });
});
