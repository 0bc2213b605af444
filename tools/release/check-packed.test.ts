import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPacked } from './check-packed.mjs';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const ROOT_ENGINES = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).engines;

/** A packed package as `packPackages` reports it, with its shipped files written to a temp folder. */
function packed(manifest: Record<string, unknown>, files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-check-packed-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const full = { name: '@toolwright/example', version: '0.1.0', engines: ROOT_ENGINES, main: './dist/index.js', types: './dist/index.d.ts', ...manifest };
  return { name: full.name, version: full.version, dir, tarball: '', files: Object.keys(files).sort(), manifest: full };
}

const GOOD = { 'README.md': '# example', 'dist/index.js': "require('node:fs'); require('./x.js');", 'dist/index.d.ts': '' };

describe(checkPacked, () => {
  it('accepts a package with its entry points, README and declared imports', () => {
    expect(checkPacked([packed({ exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }, GOOD)])).toEqual([]);
  });

  it.for([
    ['a missing README', {}, { 'README.md': undefined }, /no README.md/],
    ['an exports target not in the tarball', { exports: { './program': './dist/program.js' } }, {}, /exports\["\.\/program"\] points at \.\/dist\/program\.js/],
    ['a missing bin target', { bin: { example: './bin/example.js' } }, {}, /bin\.example points at/],
    ['test support in dist', {}, { 'dist/test-support/hostile.js': '' }, /ships dist\/test-support\/hostile\.js \(test support\)/],
    ['a test file', {}, { 'src/index.test.ts': '' }, /\(a test\)/],
    ['build info', {}, { 'dist/.tsbuildinfo': '' }, /\(build info\)/],
    ['an undeclared import', {}, { 'dist/index.js': "require('picomatch/posix');" }, /imports 'picomatch\/posix', which is in neither/],
    ['other engines', { engines: { node: '>=18' } }, {}, /engines\.node is ">=18"/],
    ['typescript as a dependency', { dependencies: { typescript: '6.0.3' } }, {}, /must be a peer/],
    ['the compiler without a typescript peer', { name: '@toolwright/transformer' }, {}, /does not list it in peerDependencies/],
  ] as const)('reports %s', ([, manifest, files, message]) => {
    const shipped = Object.fromEntries(Object.entries({ ...GOOD, ...files }).filter(([, text]) => text !== undefined)) as Record<string, string>;
    expect(checkPacked([packed(manifest, shipped)]).join('\n')).toMatch(message);
  });

  it('reports a dependency on a sibling at another version than the one packed', () => {
    const schema = packed({ name: '@toolwright/schema', version: '0.2.0' }, GOOD);
    const tool = packed({ name: '@toolwright/tool', dependencies: { '@toolwright/schema': '0.1.0' } }, GOOD);
    expect(checkPacked([schema, tool])).toEqual(['@toolwright/tool: depends on @toolwright/schema@0.1.0, but the packed @toolwright/schema is 0.2.0']);
  });
});
