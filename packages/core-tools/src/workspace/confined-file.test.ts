import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchCovers } from '@toolwright/sandbox';
import { startFlipping } from '../test-support/path-flipper.js';
import { textPage } from '../test-support/text-page.js';
import { FileWriteTool } from '../tools/file-write.js';
import { openCheckedFile, readConfined, writeFileAtomic, writeFileAtomicByPath } from './confined-file.js';
import { contentHash } from './content-hash.js';
import { FileReadTool } from '../tools/file-read.js';
import { FileEditTool } from '../tools/file-edit.js';
import { hasDescriptorPaths } from './directory-descriptor.js';
import { WorkspaceError } from './workspace-error.js';
import { WorkspacePolicy } from './workspace-policy.js';

let base: string;
let root: string;
let outside: string;
let policy: WorkspacePolicy;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-confined-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  policy = new WorkspacePolicy({ root });
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe(readConfined, () => {
  it('reads a checked file whole, refusing it past the limit with the message given, through either opener', () => {
    fs.writeFileSync(path.join(root, 'ten.txt'), '0123456789');
    const resolved = policy.resolve('ten.txt', { mustExist: true, kind: 'file' });
    expect(readConfined(resolved, 10, () => 'too big').toString()).toBe('0123456789');
    expect(readConfined(resolved, 10, () => 'too big', { open: openCheckedFile }).toString()).toBe('0123456789');
    expect(() => readConfined(resolved, 9, (size) => `${size} bytes is too big`, { shown: 'shown.txt' })).toThrow(
      expect.objectContaining({ code: 'too_large', message: '10 bytes is too big', path: 'shown.txt' }),
    );
  });
});

describe(contentHash, () => {
  it('is the hash file_read reports and file_edit returns and checks', async () => {
    fs.writeFileSync(path.join(root, 'hashed.txt'), 'héllo\n');
    const env = { workspace: policy, readHashes: new Map<string, string>() };
    expect(textPage(await new FileReadTool(env).fileRead('hashed.txt')).hash).toBe(contentHash('héllo\n'));
    const edited = await new FileEditTool(env).fileEdit('hashed.txt', 'héllo', 'hi');
    expect(edited.hash).toBe(contentHash(Buffer.from('hi\n')));
  });
});

describe(writeFileAtomic, () => {
  it.runIf(hasDescriptorPaths)('creates no directory outside while a parent flips to a link outside (1,000 writes)', async () => {
    const flipper = await startFlipping(path.join(root, 'dir'), [{ dir: {} }, { link: outside }]);
    const tool = new FileWriteTool({ workspace: policy });
    try {
      for (let i = 0; i < 1000; i++) {
        try {
          await tool.fileWrite(`dir/sub${i}/f.txt`, 'x');
        } catch (error) {
          if (!(error instanceof WorkspaceError)) throw error;
        }
      }
    } finally {
      await flipper.stop();
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('keeps the permissions of a file it replaces, and leaves no temporary file', () => {
    fs.writeFileSync(path.join(root, 'script.sh'), 'old');
    fs.chmodSync(path.join(root, 'script.sh'), 0o750);
    writeFileAtomic(policy.resolve('script.sh'), 'new');
    expect(fs.statSync(path.join(root, 'script.sh')).mode & 0o777).toBe(0o750);
    expect(fs.readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a file whose name takes the whole 255 bytes', () => {
    writeFileAtomic(policy.resolve(`long/${'n'.repeat(255)}`), 'x');
    expect(fs.readFileSync(path.join(root, 'long', 'n'.repeat(255)), 'utf8')).toBe('x');
  });

  it('refuses a parent swapped for a link after the check, before creating anything', () => {
    fs.mkdirSync(path.join(root, 'swapped'));
    const resolved = policy.resolve('swapped/new/deep.txt');
    fs.rmdirSync(path.join(root, 'swapped'));
    fs.symlinkSync(outside, path.join(root, 'swapped'));
    expect(() => writeFileAtomic(resolved, 'x')).toThrow(expect.objectContaining({ code: 'changed_during_use' }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe('a write over a path a running sandbox covers', () => {
  // Where a covering sandbox cannot be ended (no control groups; a process that will not die), the write waits.
  it.for([
    ['writeFileAtomic', writeFileAtomic],
    ['writeFileAtomicByPath', writeFileAtomicByPath],
  ] as const)('is refused as busy by %s when the sandbox cannot be ended, and changes nothing', ([, write]) => {
    fs.writeFileSync(path.join(root, 'covered.env'), 'TOKEN=user\n');
    const ended: string[] = [];
    const stop = watchCovers(
      [path.join(root, 'covered.env')],
      (covered) => {
        ended.push(covered);
        return false;
      },
      root,
    );
    try {
      expect(() => write(policy.resolve('covered.env'), 'TOKEN=new\n')).toThrow(expect.objectContaining({ code: 'busy' }));
      expect(ended).toEqual([path.join(root, 'covered.env')]);
      expect(fs.readFileSync(path.join(root, 'covered.env'), 'utf8')).toBe('TOKEN=user\n');
      expect(fs.readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe(writeFileAtomicByPath, () => {
  it('creates missing parents one at a time and writes atomically', () => {
    writeFileAtomicByPath(policy.resolve('by-path/a/b/c.txt'), 'content');
    expect(fs.readFileSync(path.join(root, 'by-path', 'a', 'b', 'c.txt'), 'utf8')).toBe('content');
  });

  it('refuses, and removes again, a directory created outside through a parent swapped for a link', () => {
    fs.mkdirSync(path.join(root, 'by-path-swapped'));
    const resolved = policy.resolve('by-path-swapped/new/deep.txt');
    fs.rmdirSync(path.join(root, 'by-path-swapped'));
    fs.symlinkSync(outside, path.join(root, 'by-path-swapped'));
    expect(() => writeFileAtomicByPath(resolved, 'x')).toThrow(expect.objectContaining({ code: 'changed_during_use' }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
