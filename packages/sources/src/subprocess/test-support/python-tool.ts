import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { SourceError } from '../../source-error.js';
import type { SubprocessToolOptions } from '../../source-options.js';
import { runSubprocess } from '../run-subprocess.js';
import { testSandboxMode } from './sandbox-here.js';
import { processesWith, stillRunning, watchProcesses } from './process-watch.js';
import { subprocessRequest, type TestCall } from './subprocess-request.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A fresh folder (canonical), removed after the test file. */
export function folder(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temporary.push(dir);
  return dir;
}

/** A random marker a test passes as the program's last argument, to find its processes on the host. */
export function newMarker(): string {
  return `tw-marker-${randomBytes(6).toString('hex')}`;
}

/** Every entry below `dir` with its content, to tell that nothing was written there. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = entry.isFile() ? fs.readFileSync(file, 'utf8') : '<dir>';
  }
  return files;
}

/**
 * Runs Python `code` as a subprocess tool started in a fresh tool folder (or `call.toolDir`), with a marker as its
 * last argument so that every process of the call can be found on the host, watching them while it runs; checks
 * that none is left running once the call has settled. It runs in the tests' sandbox mode unless `options` name one.
 */
export async function runPython(code: string, options: SubprocessToolOptions = {}, call: TestCall & { toolDir?: string } = {}) {
  const marker = newMarker();
  const toolDir = call.toolDir ?? folder('tw-subprocess-tool-');
  const request = subprocessRequest(['python3', '-c', code, marker], toolDir, { sandbox: testSandboxMode(), ...options }, call);
  const watched = await watchProcesses(marker, () => runSubprocess(request));
  expect(watched.seen.filter(stillRunning)).toEqual([]);
  expect(processesWith(marker)).toEqual([]);
  return { ...watched, marker, toolDir };
}

/** The SourceError a settled call was rejected with (the test fails if it succeeded). */
export function failure(result: PromiseSettledResult<unknown>): SourceError {
  if (result.status === 'fulfilled') throw new Error(`the call succeeded: ${JSON.stringify(result.value)}`);
  expect(result.reason).toBeInstanceOf(SourceError);
  return result.reason as SourceError;
}

/** The value a settled call resolved to (the test fails if it was rejected). */
export function value<T = unknown>(result: PromiseSettledResult<unknown>): T {
  if (result.status === 'rejected') throw new Error(`the call failed: ${String(result.reason)}`);
  return result.value as T;
}
