import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForReading, writeFileAtomic } from './confined-file.js';
import { WorkspaceError } from './workspace-error.js';
import { isWithin, WorkspacePolicy } from './workspace-policy.js';

let base: string;
let root: string;
let policy: WorkspacePolicy;
let server: net.Server;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ws-')));
  root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(base, 'ws-evil'));
  fs.mkdirSync(path.join(base, 'shared'));
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, 'src', 'a.txt'), 'hello');
  fs.writeFileSync(path.join(base, 'ws-evil', 'secret.txt'), 'secret');
  fs.writeFileSync(path.join(base, 'outside.txt'), 'outside');
  fs.symlinkSync(path.join(base, 'outside.txt'), path.join(root, 'link-out'));
  fs.symlinkSync(path.join(base, 'ws-evil'), path.join(root, 'dir-out'));
  fs.symlinkSync(path.join(root, 'src', 'a.txt'), path.join(root, 'link-in'));
  fs.symlinkSync(path.join(base, 'missing-outside'), path.join(root, 'dangling-out'));
  fs.symlinkSync('/dev/null', path.join(root, 'devnull'));
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  server = net.createServer().listen(path.join(root, 'sock'));
  await new Promise((resolve) => server.once('listening', resolve));
  policy = new WorkspacePolicy({ root, shared: path.join(base, 'shared') });
});

afterAll(() => {
  server.close();
  fs.rmSync(base, { recursive: true, force: true });
});

function refusal(input: string, options?: Parameters<WorkspacePolicy['resolve']>[1]): string {
  try {
    policy.resolve(input, options);
  } catch (error) {
    if (error instanceof WorkspaceError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe(WorkspacePolicy, () => {
  it.for([
    ['src/a.txt', 'src/a.txt'],
    ['private:/src/a.txt', 'src/a.txt'],
    ['./src/../src/a.txt', 'src/a.txt'],
    ['link-in', 'src/a.txt'],
    ['src/new/file.txt', 'src/new/file.txt'],
    ['.', ''],
  ] as const)('resolves %s inside the workspace', ([input, relative]) => {
    expect(policy.resolve(input).relative).toBe(relative);
  });

  it.for([
    ['../outside.txt', 'outside_workspace'],
    ['src/../../outside.txt', 'outside_workspace'],
    ['../ws-evil/secret.txt', 'outside_workspace'],
    ['/../../etc/passwd', 'outside_workspace'],
    ['/src/a.txt', 'outside_workspace'], // absolute: the file system's /src, not the workspace's
    ['link-out', 'symlink_escape'],
    ['dir-out/secret.txt', 'symlink_escape'],
    ['dir-out/new.txt', 'symlink_escape'],
    ['dangling-out', 'symlink_escape'],
    ['devnull', 'symlink_escape'],
    ['fifo', 'special_file'],
    ['sock', 'special_file'],
    ['src/a.txt\0.png', 'invalid_path'],
    ['src/a\n.txt', 'invalid_path'],
    ['', 'invalid_path'],
    [`${'x'.repeat(300)}/a`, 'invalid_path'],
    [`${'a/'.repeat(2100)}b`, 'invalid_path'],
    ['public:/index.html', 'unknown_scope'],
    ['ftp:/x', 'unknown_scope'],
    ['src/a.txt/child', 'not_a_directory'],
  ] as const)('refuses %j as %s', ([input, code]) => {
    expect(refusal(input)).toBe(code);
  });

  it('compares by path segments, never by string prefix', () => {
    expect(isWithin('/ws', '/ws-evil/x')).toBe(false);
    expect(isWithin('/ws', '/ws/x')).toBe(true);
    expect(isWithin('/ws', '/ws')).toBe(true);
    expect(isWithin('/ws', '/ws/../ws-evil')).toBe(false);
  });

  it('resolves scopes to their own roots', () => {
    expect(policy.resolve('shared:/notes.md').absolute).toBe(path.join(base, 'shared', 'notes.md'));
  });

  it('marks protected paths', () => {
    expect(policy.resolve('.git/config').protected).toBe(true);
    expect(policy.resolve('src/a.txt').protected).toBe(false);
  });

  it('checks existence and kind when asked', () => {
    expect(refusal('src/missing.txt', { mustExist: true })).toBe('not_found');
    expect(refusal('src', { kind: 'file' })).toBe('not_a_file');
    expect(refusal('src/a.txt', { kind: 'directory' })).toBe('not_a_directory');
  });

  it('never resolves any string to a path outside the root (property)', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', 'src', 'link-out', 'dir-out', 'link-in', 'a.txt', '...', '..%2f', '\\..'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, absolute) => {
        const input = `${absolute ? '/' : ''}${segments.join('/')}`;
        try {
          const resolved = policy.resolve(input);
          expect(isWithin(root, resolved.absolute)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(WorkspaceError);
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('confined file access', () => {
  it('refuses a final symlink at open time even if it was swapped in after the check', () => {
    const target = path.join(root, 'src', 'swap.txt');
    fs.writeFileSync(target, 'inside');
    const resolved = policy.resolve('src/swap.txt', { mustExist: true });
    fs.rmSync(target);
    fs.symlinkSync(path.join(base, 'outside.txt'), target);
    expect(() => openForReading(resolved)).toThrow(expect.objectContaining({ code: 'symlink_escape' }));
  });

  it('refuses a parent directory swapped for a symlink between check and open', () => {
    const dir = path.join(root, 'src', 'swapdir');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'f.txt'), 'inside');
    const resolved = policy.resolve('src/swapdir/f.txt', { mustExist: true });
    fs.rmSync(dir, { recursive: true });
    fs.mkdirSync(path.join(base, 'ws-evil', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(base, 'ws-evil', 'sub', 'f.txt'), 'secret');
    fs.symlinkSync(path.join(base, 'ws-evil', 'sub'), dir);
    expect(() => openForReading(resolved)).toThrow(expect.objectContaining({ code: 'changed_during_use' }));
  });

  it('writes atomically, creating parents, and refuses to write through a symlink', () => {
    writeFileAtomic(policy.resolve('src/out/new.txt'), 'content');
    expect(fs.readFileSync(path.join(root, 'src', 'out', 'new.txt'), 'utf8')).toBe('content');
    expect(fs.readdirSync(path.join(root, 'src', 'out'))).toEqual(['new.txt']);
    const linkPath = path.join(root, 'src', 'write-link');
    fs.symlinkSync(path.join(root, 'src', 'a.txt'), linkPath);
    const resolved = { ...policy.resolve('src/a.txt'), absolute: linkPath, relative: 'src/write-link' };
    expect(() => writeFileAtomic(resolved, 'x')).toThrow(expect.objectContaining({ code: 'symlink_escape' }));
  });
});
