import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileWriteTool } from '../tools/file-write.js';
import { isWithin } from './is-within.js';
import { WorkspaceError } from './workspace-error.js';
import { WorkspacePolicy } from './workspace-policy.js';

let base: string;
let root: string;
let linkedRoot: string;
let shared: string;
let policy: WorkspacePolicy;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-paths-')));
  root = path.join(base, 'ws');
  shared = path.join(base, 'shared');
  linkedRoot = path.join(base, 'ws-link');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
  fs.symlinkSync(root, linkedRoot);
  // Configured through the link: `linkedRoot` is the given spelling, `root` the canonical one.
  policy = new WorkspacePolicy({ root: linkedRoot, shared });
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function outcome(input: string): string {
  try {
    return `ok:${policy.resolve(input).scope}:${policy.resolve(input).relative}`;
  } catch (error) {
    if (error instanceof WorkspaceError) return error.code;
    throw error;
  }
}

/** Names made only of dots and letters, other than `.` and `..` themselves. */
const dottedName = fc.stringMatching(/^\.{1,5}[a-z.]{0,4}$/).filter((name) => name !== '.' && name !== '..');

describe('path semantics', () => {
  it.for(['..test', '...', '....new', '..', '.'].map((name) => [name]))('isWithin compares %s by whole segments', ([name]) => {
    expect(isWithin('/ws', path.join('/ws', name!))).toBe(name !== '..');
  });

  it('takes names that start with dots as ordinary names inside the workspace (property)', () => {
    fc.assert(
      fc.property(fc.array(dottedName, { minLength: 1, maxLength: 3 }), (segments) => {
        const relative = segments.join('/');
        expect(outcome(relative)).toBe(`ok:private:${relative}`);
        expect(outcome(`src/${relative}`)).toBe(`ok:private:src/${relative}`);
      }),
      { numRuns: 500 },
    );
  });

  it('creates files named ..test, ... and ....new inside the workspace', async () => {
    const tool = new FileWriteTool({ workspace: policy });
    for (const name of ['..test', '...', '....new', 'dir.../..x']) {
      expect(await tool.fileWrite(name, name)).toMatchObject({ path: name, created: true });
      expect(fs.readFileSync(path.join(root, name), 'utf8')).toBe(name);
    }
  });

  it('takes an absolute path inside the workspace as that file, however the root is spelled', () => {
    expect(outcome(`${root}/src/a.ts`)).toBe('ok:private:src/a.ts');
    expect(outcome(`${linkedRoot}/src/a.ts`)).toBe('ok:private:src/a.ts');
    expect(outcome(`${root}`)).toBe('ok:private:');
    expect(outcome(`${root}/src/../src/new.ts`)).toBe('ok:private:src/new.ts');
    expect(outcome(`${shared}/notes.md`)).toBe('ok:shared:notes.md');
    fs.symlinkSync(root, path.join(base, 'alias'));
    expect(outcome(`${base}/alias/src/a.ts`)).toBe('ok:private:src/a.ts');
    expect(policy.resolve(`${root}/src/a.ts`).absolute).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('gives the same answer for a path and its absolute form under the root (property)', () => {
    const segment = fc.constantFrom('src', 'a.ts', '..', '.', 'new', '..test', '...');
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(
          () => root,
          () => linkedRoot,
        ),
        (segments, spelling) => {
          const relative = segments.join('/');
          const absolute = `${spelling()}/${relative}`;
          const expected = outcome(relative);
          // `..` past the root is outside either way; otherwise both name the same file.
          expect(outcome(absolute)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses an absolute path outside every scope, naming the workspace root, and writes nothing', async () => {
    const tool = new FileWriteTool({ workspace: policy });
    const target = path.join(base, 'elsewhere', 'p06.txt');
    await expect(tool.fileWrite(target, 'x')).rejects.toMatchObject({ code: 'outside_workspace', message: expect.stringContaining(root) });
    await expect(tool.fileWrite('/tmp/x/p06.txt', 'x')).rejects.toMatchObject({ code: 'outside_workspace' });
    expect(fs.existsSync(path.join(root, 'tmp'))).toBe(false);
    expect(fs.existsSync(path.join(root, base))).toBe(false);
    expect(fs.existsSync(target)).toBe(false);
    expect(outcome('/etc/passwd')).toBe('outside_workspace');
    expect(outcome(`${root}-evil/x`)).toBe('outside_workspace');
    expect(outcome(`${root}/../outside.txt`)).toBe('outside_workspace');
  });

  it('keeps scope prefixes relative to their scope root', () => {
    expect(outcome('private:/src/a.ts')).toBe('ok:private:src/a.ts');
    expect(outcome('private://src/a.ts')).toBe('ok:private:src/a.ts');
    expect(outcome('shared:/notes.md')).toBe('ok:shared:notes.md');
    expect(outcome('private:/../x')).toBe('outside_workspace');
    expect(outcome('public:/x')).toBe('unknown_scope');
  });
});
