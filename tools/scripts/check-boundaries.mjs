#!/usr/bin/env node
// Module boundaries between packages, read from each package's `nx.tags` (the same tags `nx graph` shows):
// a package may import only packages of a lower layer, and runtime packages never import `typescript`.
// Dependencies agree with imports both ways: an imported package is declared, and a declared one is imported.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ts = createRequire(import.meta.url)('typescript');

const root = path.resolve(import.meta.dirname, '../..');
const LAYERS = [
  'layer:schema',
  'layer:authoring',
  'layer:build',
  'layer:registry',
  'layer:executor',
  'layer:sandbox',
  'layer:tools',
  'layer:integration',
  'layer:cli',
];
const BUILD_ONLY = new Set(['typescript', 'ts-patch']);

const packages = new Map();
for (const dir of fs.readdirSync(path.join(root, 'packages'))) {
  const file = path.join(root, 'packages', dir, 'package.json');
  if (!fs.existsSync(file)) continue;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  const tags = manifest.nx?.tags ?? [];
  const layer = tags.find((t) => t.startsWith('layer:'));
  if (!LAYERS.includes(layer)) fail(`${manifest.name}: missing or unknown layer tag (${layer}); use one of ${LAYERS.join(', ')}`);
  packages.set(manifest.name, { dir: path.join(root, 'packages', dir), rank: LAYERS.indexOf(layer), runtime: tags.includes('scope:runtime'), manifest });
}

const problems = [];
for (const [name, pkg] of packages) {
  const imported = new Set();
  for (const file of walk(path.join(pkg.dir, 'src'))) {
    if (file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(file, 'utf8');
    // The compiler's own pre-processor finds imports, exports, dynamic imports and requires (not strings).
    const { importedFiles } = ts.preProcessFile(text, true, true);
    // Files a package loads by resolving a path inside another package (a grammar's .wasm) count as imports.
    const resolved = [...text.matchAll(/require\.resolve\(\s*['"]([^'"]+)['"]/g)].map((m) => ({ fileName: m[1] }));
    for (const { fileName: spec } of [...importedFiles, ...resolved]) {
      const target = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      imported.add(target);
      const where = `${path.relative(root, file)}: imports '${spec}'`;
      if (packages.has(target) && target !== name) {
        const dep = packages.get(target);
        if (dep.rank >= pkg.rank) problems.push(`${where}, but ${target} is not in a lower layer than ${name}`);
        const declared = { ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies };
        if (!(target in declared)) problems.push(`${where}, but ${name} does not list it in dependencies`);
      }
      if (pkg.runtime && BUILD_ONLY.has(target)) problems.push(`${where}: runtime packages never load the compiler`);
    }
  }
  const manifestFile = path.relative(root, path.join(pkg.dir, 'package.json'));
  for (const field of ['dependencies', 'peerDependencies']) {
    for (const dep of Object.keys(pkg.manifest[field] ?? {})) {
      // An optional peer is one the package detects at run time (reflect-metadata's global API), not imports.
      if (field === 'peerDependencies' && pkg.manifest.peerDependenciesMeta?.[dep]?.optional) continue;
      if (!imported.has(dep)) problems.push(`${manifestFile}: lists '${dep}' in ${field}, but no source file of ${name} imports it`);
    }
  }
}
if (problems.length > 0) fail(problems.join('\n'));
console.log(`module boundaries: ${packages.size} packages checked, no violations`);

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}
function fail(message) {
  console.error(`module boundaries violated:\n${message}`);
  process.exit(1);
}
