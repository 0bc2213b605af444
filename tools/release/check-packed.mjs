#!/usr/bin/env node
// What a published package must hold, checked on the tarballs `npm pack` makes (not on the folders):
// a README; every `main`, `types`, `exports` and `bin` target; no tests, test support, snapshots or build
// info; the engines of the repository; `typescript` as a peer where the compiler is used; every package a
// shipped file imports declared. `node tools/release/check-packed.mjs [--out <dir>]` packs and checks
// (keeping the tarballs in <dir> when given); `checkPacked` is what the e2e test runs.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { packPackages, REPO } from './pack-packages.mjs';

const ts = createRequire(import.meta.url)('typescript');

/** Files that belong to the repository's tests, never to a published package. */
const NOT_SHIPPED = [
  [/(^|\/)test-support(\/|$)/, 'test support'],
  [/\.test(-d)?\.[cm]?[jt]sx?$/, 'a test'],
  [/(^|\/)__snapshots__\//, 'a test snapshot'],
  [/(^|\/)fixtures\//, 'a test fixture'],
  [/\.tsbuildinfo$/, 'build info'],
];
/** Packages that load the compiler, which the user's project provides (one TypeScript for both). */
const TYPESCRIPT_PEERS = new Set(['@toolwright/transformer', '@toolwright/language-service', '@toolwright/cli']);
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Returns every problem found in the packed packages, as `name: what is wrong`; none when all is well. */
export function checkPacked(packed) {
  const root = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const versions = new Map(packed.map((p) => [p.name, p.version]));
  const problems = [];
  for (const pkg of packed) {
    const report = (message) => problems.push(`${pkg.name}: ${message}`);
    const files = new Set(pkg.files);
    const { manifest } = pkg;

    if (!files.has('README.md')) report('no README.md');
    if (manifest.engines?.node !== root.engines.node)
      report(`engines.node is ${JSON.stringify(manifest.engines?.node)}, not the repository's ${JSON.stringify(root.engines.node)}`);
    for (const [where, target] of entryPoints(manifest)) {
      if (!files.has(normalise(target))) report(`${where} points at ${target}, which is not in the tarball`);
    }
    for (const file of pkg.files) {
      const hit = NOT_SHIPPED.find(([pattern]) => pattern.test(file));
      if (hit) report(`ships ${file} (${hit[1]})`);
    }

    const peers = manifest.peerDependencies ?? {};
    const dependencies = manifest.dependencies ?? {};
    if (TYPESCRIPT_PEERS.has(pkg.name) && !('typescript' in peers)) report('loads typescript but does not list it in peerDependencies');
    if ('typescript' in dependencies) report('lists typescript in dependencies: it must be a peer, so the project compiles with one TypeScript');
    for (const [dep, range] of Object.entries(dependencies)) {
      if (versions.has(dep) && range !== versions.get(dep)) report(`depends on ${dep}@${range}, but the packed ${dep} is ${versions.get(dep)}`);
    }

    const declared = new Set([pkg.name, ...Object.keys(dependencies), ...Object.keys(peers)]);
    for (const file of pkg.files.filter((f) => /\.[cm]?js$/.test(f))) {
      const text = fs.readFileSync(path.join(pkg.dir, file), 'utf8');
      for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
        if (spec.startsWith('.') || spec.startsWith('/') || BUILTINS.has(spec)) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!declared.has(name)) report(`${file} imports '${spec}', which is in neither dependencies nor peerDependencies`);
      }
    }
  }
  return problems;
}

/** Every file a manifest names as an entry point, with where it names it. */
function entryPoints(manifest) {
  const entries = [];
  if (manifest.main) entries.push(['main', manifest.main]);
  if (manifest.types) entries.push(['types', manifest.types]);
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [name, target] of Object.entries(bins)) entries.push([`bin.${name}`, target]);
  const walk = (value, where) => {
    if (typeof value === 'string') entries.push([where, value]);
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, `${where}[${JSON.stringify(key)}]`);
  };
  walk(manifest.exports, 'exports');
  return entries;
}

const normalise = (target) => path.posix.normalize(target).replace(/^\.\//, '');

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv.indexOf('--out');
  const destination = out > 0 ? path.resolve(process.argv[out + 1]) : fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-pack-'));
  try {
    const packed = packPackages(destination);
    for (const pkg of packed) console.log(`${pkg.name}@${pkg.version}: ${pkg.files.length} files, ${path.basename(pkg.tarball)}`);
    const problems = checkPacked(packed);
    for (const problem of problems) console.error(`  ${problem}`);
    console.log(problems.length === 0 ? `${packed.length} packages packed and checked` : `${problems.length} problem(s) in the packed packages`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  } finally {
    if (out < 0) fs.rmSync(destination, { recursive: true, force: true });
  }
}
