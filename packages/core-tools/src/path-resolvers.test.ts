import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coreToolsPathResolvers } from './path-resolvers.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-resolve-')));
const root = path.join(base, 'ws');
const shared = path.join(base, 'shared');
for (const dir of [root, shared, path.join(root, 'secrets'), path.join(root, 'sub'), path.join(shared, 'notes')]) fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(root, '.env'), 'TOKEN=1');
fs.writeFileSync(path.join(root, 'secrets', 'k'), 'key');
fs.symlinkSync('../.env', path.join(root, 'sub', 'env-link'));
fs.symlinkSync(root, path.join(base, 'ws-alias'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const resolvers = coreToolsPathResolvers({ workspace: new WorkspacePolicy({ root, shared }) });
const resolve = (value: string) => resolvers.file_read!('path', value, { path: value });

/** Every spelling of a workspace-relative path: scope prefix, absolute roots (given, through a link), `./`, `//`, `x/..` detours. */
const spellings = (relative: string): string[] => {
  const prefixes = ['', './', './/', 'private:/', 'private://', `${root}/`, `${root}//`, `${path.join(base, 'ws-alias')}/`, `${root}/./`];
  const detours = ['', 'x/../', 'sub/../', './', 'secrets/.././'];
  // Each segment after any detour: the spellings so far, times the detours of the next segment.
  return relative
    .split('/')
    .reduce((spelled, segment, i) => spelled.flatMap((before) => detours.map((detour) => `${before}${i === 0 ? '' : '/'}${detour}${segment}`)), prefixes);
};

describe(coreToolsPathResolvers, () => {
  it('resolves every spelling of a workspace path to its canonical relative form (property)', () => {
    // 540 spellings in all: 45 of `.env` and `sub`, 225 of `secrets/k` and `secrets/new-file`.
    for (const canonical of ['.env', 'secrets/k', 'secrets/new-file', 'sub']) {
      for (const spelled of spellings(canonical)) expect(resolve(spelled), spelled).toEqual([canonical]);
    }
  });

  it('names both a link and where it leads', () => {
    expect(resolve('sub/env-link')).toEqual(['sub/env-link', '.env']);
  });

  it('a recursive delete names every path in the tree it removes, and nothing through a link', () => {
    const del = resolvers.file_delete!;
    expect(del('path', 'secrets', { path: 'secrets', recursive: true })).toEqual(['secrets', 'secrets/k']);
    expect(del('path', 'secrets', { path: 'secrets' })).toEqual(['secrets']);
    expect(del('path', 'sub', { path: 'sub', recursive: true })).toEqual(['sub', 'sub/env-link']);
    expect(resolvers.file_read!('path', 'secrets', { path: 'secrets', recursive: true })).toEqual(['secrets']);
  });

  it('spells other scopes with their prefix', () => {
    expect(resolve('shared:/notes/../notes/a.md')).toEqual(['shared:/notes/a.md']);
    expect(resolve(`${shared}/notes/a.md`)).toEqual(['shared:/notes/a.md']);
  });

  it.for(['../outside', '/etc/passwd', 'a\u0000b', 'public:/x', ''])('resolves nothing for %j, which the tool refuses', (value) => {
    expect(resolve(value)).toBeUndefined();
  });

  it('covers every core tool with a path parameter', () => {
    expect(Object.keys(resolvers).sort()).toEqual(['file_delete', 'file_edit', 'file_list', 'file_read', 'file_search', 'file_write', 'glob']);
  });
});
