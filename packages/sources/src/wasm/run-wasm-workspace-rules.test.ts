// A module's file calls obey what the workspace keeps from every tool, as the CLI hands it to each call: the paths
// it protects (the project's own code and configuration, the audit log, the config's protectedPaths) are never
// written by a module, and the paths the policy's deny rules hide are neither read nor written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../tools/wasm/build-modules.mjs';
import { HostStatus } from './host-status.js';
import { runWasm } from './run-wasm.js';
import { liveWorkerCount, stopIdleWorkers } from './test-support/live-workers.js';
import { testModule, wasmRequest } from './test-support/wasm-request.js';

const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-wasm-rules-')));
/** As `toolwright serve -p .` sets them where the workspace is the project (see `withOwnFilesProtected`). */
const rules = {
  protectedPaths: ['.git', '.env', '/node_modules/@toolwright', '/tsconfig.json', '/package.json', '/.toolwright/audit.jsonl'],
  deniedPaths: ['secrets/**'],
};

beforeAll(async () => {
  fs.mkdirSync(path.join(project, 'node_modules', '@toolwright', 'sources', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(project, 'node_modules', '@toolwright', 'sources', 'dist', 'index.js'), 'export {};\n');
  fs.writeFileSync(path.join(project, 'tsconfig.json'), '{}\n');
  fs.mkdirSync(path.join(project, 'secrets'));
  fs.writeFileSync(path.join(project, 'secrets', 'prod.key'), 'hunter2\n');
  await buildWasmModules();
}, 120_000);
afterAll(async () => {
  fs.rmSync(project, { recursive: true, force: true });
  await stopIdleWorkers();
  expect(liveWorkerCount()).toBe(0);
});

const call = (input: Record<string, unknown>, tier: 'read-only' | 'side-effecting' = 'side-effecting') =>
  runWasm(wasmRequest(testModule('files'), { workspace: project, tier, rules, input }));

describe("a module's file calls and the workspace's rules", () => {
  it.for(['node_modules/@toolwright/sources/dist/index.js', 'tsconfig.json', 'package.json', '.toolwright/audit.jsonl', 'sub/.git/config'])(
    'never write a path the workspace protects (%s)',
    async (file) => {
      const before = fs.existsSync(path.join(project, file)) ? fs.readFileSync(path.join(project, file), 'utf8') : undefined;
      await expect(call({ op: 'write', path: file, text: 'planted' })).resolves.toEqual({ code: HostStatus.denied });
      const after = fs.existsSync(path.join(project, file)) ? fs.readFileSync(path.join(project, file), 'utf8') : undefined;
      expect(after).toBe(before);
    },
  );

  it.for(['secrets/prod.key', './secrets/../secrets/prod.key', 'SECRETS/prod.key'])('neither read nor write what a deny rule hides (%s)', async (file) => {
    await expect(call({ op: 'read', path: file }, 'read-only')).resolves.toEqual({ code: HostStatus.denied });
    await expect(call({ op: 'write', path: file, text: 'planted' })).resolves.toEqual({ code: HostStatus.denied });
    expect(fs.readFileSync(path.join(project, 'secrets', 'prod.key'), 'utf8')).toBe('hunter2\n');
  });

  it('still read and write what the rules leave alone', async () => {
    await expect(call({ op: 'write', path: 'notes.txt', text: 'kept' })).resolves.toEqual({ code: HostStatus.ok });
    expect(fs.readFileSync(path.join(project, 'notes.txt'), 'utf8')).toBe('kept');
  });
});
