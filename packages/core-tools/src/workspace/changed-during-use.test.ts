import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreToolsEnvironment } from '../environment.js';
import { findRipgrep } from '../search/ripgrep-search.js';
import { startFlipping } from '../test-support/path-flipper.js';
import { FileDeleteTool } from '../tools/file-delete.js';
import { FileEditTool } from '../tools/file-edit.js';
import { FileListTool } from '../tools/file-list.js';
import { FileReadTool } from '../tools/file-read.js';
import { FileSearchTool } from '../tools/file-search.js';
import { FileWriteTool } from '../tools/file-write.js';
import { GlobTool } from '../tools/glob.js';
import { isWithin } from './is-within.js';
import { WorkspaceError } from './workspace-error.js';
import { WorkspacePolicy } from './workspace-policy.js';
import { InFlight } from '../test-support/in-flight.js';

const SECRET = 'SECRET outside content';
let base: string;
let root: string;
let outside: string;
let policy: WorkspacePolicy;
let flipper: { stop(): Promise<void> };

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-race-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'inside'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'inside', 'f.txt'), 'inside text\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(outside, 'f.txt'), SECRET);
  fs.mkdirSync(path.join(outside, 'sub'));
  fs.writeFileSync(path.join(outside, 'sub', 'secret.txt'), SECRET);
  policy = new WorkspacePolicy({ root });
  // `flip` keeps turning into a directory, a file, a link to a directory inside and a link outside.
  flipper = await startFlipping(path.join(root, 'flip'), [
    { dir: { 'f.txt': 'inside text\n', 'sub/f.txt': 'inside text\n' } },
    { file: 'inside file\n' },
    { link: path.join(root, 'inside') },
    { link: outside },
    { link: path.join(outside, 'secret.txt') },
  ]);
});

const inFlight = new InFlight();
afterAll(async () => {
  await inFlight.settled();
  await flipper?.stop();
  fs.rmSync(base, { recursive: true, force: true });
});

/** A call made while `flip` changes: it must succeed or fail with a WorkspaceError, and never show outside content. */
async function settle(call: () => unknown): Promise<void> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw new Error(`not a WorkspaceError: ${(error as Error)?.stack ?? String(error)}`, { cause: error });
    return;
  }
  const text = JSON.stringify(result) ?? '';
  expect(text).not.toContain('SECRET');
  expect(text).not.toContain('secret.txt');
  expect(text).not.toContain(outside);
}

describe('a path changed during the call', () => {
  it('makes resolve and resolveLink fail only with WorkspaceErrors, and never resolve outside (property)', async () => {
    const inputs = ['flip', 'flip/f.txt', 'flip/secret.txt', 'flip/new/x.txt', 'flip/./f.txt', `${root}/flip/f.txt`];
    const hows = ['resolve', 'file', 'directory', 'mustExist', 'link'] as const;
    // Every input each way (30 cases), a hundred rounds: the rounds are what meet `flip` in each of its states.
    for (let round = 0; round < 100; round++) {
      for (const input of inputs) {
        for (const how of hows) {
          try {
            const resolved =
              how === 'link'
                ? policy.resolveLink(input)
                : policy.resolve(input, how === 'resolve' ? {} : how === 'mustExist' ? { mustExist: true } : { kind: how });
            expect(isWithin(root, resolved.absolute), `${how} ${input}`).toBe(true);
          } catch (error) {
            if (!(error instanceof WorkspaceError))
              throw new Error(`${how} ${input}: not a WorkspaceError: ${(error as Error)?.stack ?? String(error)}`, { cause: error });
          }
        }
      }
    }
  });

  it('makes every file tool succeed inside or fail with a WorkspaceError, touching nothing outside (property)', async () => {
    const env: CoreToolsEnvironment = { workspace: policy, ripgrep: false };
    const read = new FileReadTool(env);
    const write = new FileWriteTool(env);
    const edit = new FileEditTool(env);
    const remove = new FileDeleteTool(env);
    const list = new FileListTool(env);
    const search = new FileSearchTool(env);
    const glob = new GlobTool(env);
    const calls: Record<string, () => Promise<unknown>> = {
      read: () => read.fileRead('flip/f.txt'),
      readSecret: () => read.fileRead('flip/secret.txt'),
      readFlip: () => read.fileRead('flip'),
      write: () => write.fileWrite('flip/w.txt', 'written'),
      writeDeep: () => write.fileWrite('flip/sub/deeper/w.txt', 'written'),
      edit: () => edit.fileEdit('flip/f.txt', 'inside', 'inside'),
      create: () => edit.fileEdit('flip/created.txt', '', 'created'),
      remove: () => remove.fileDelete('flip/w.txt'),
      removeTree: () => remove.fileDelete('flip/sub', true),
      removeFlip: () => remove.fileDelete('flip', true),
      list: () => list.fileList('flip', 3),
      listDeep: () => list.fileList('flip/sub', 3),
      glob: () => glob.glob('**', 'flip'),
      globDeep: () => glob.glob('**', 'flip/sub'),
      search: () => search.fileSearch('SECRET|inside', 'flip', false, 'smart', [], [], 1),
      searchDeep: () => search.fileSearch('SECRET|inside', 'flip/sub', false, 'smart', [], [], 1),
      searchAll: () => search.fileSearch('SECRET|inside'),
    };
    const rg = findRipgrep();
    if (rg) {
      const ripgrep = new FileSearchTool({ ...env, ripgrep: rg });
      calls.ripgrep = () => ripgrep.fileSearch('SECRET|inside', 'flip', false, 'smart', [], [], 1);
      calls.ripgrepAll = () => ripgrep.fileSearch('SECRET|inside');
      calls.ripgrepDeep = () => ripgrep.fileSearch('SECRET|inside', 'flip/sub', false, 'smart', [], [], 1);
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...Object.keys(calls)), { minLength: 1, maxLength: 12 }), async (names) => {
        for (const name of names) await inFlight.track(settle(calls[name]!));
      }),
      { numRuns: 200 },
    );
    // A run stopped at the property's time limit goes on: waited for, so the checks below see all it did.
    await inFlight.settled();
    expect(fs.readdirSync(outside).sort()).toEqual(['f.txt', 'secret.txt', 'sub']);
    expect(fs.readdirSync(path.join(outside, 'sub'))).toEqual(['secret.txt']);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(fs.readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe(SECRET);
  });
});
