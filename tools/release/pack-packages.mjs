// Packs every workspace package under packages/ with `npm pack`, as `npm publish` would, and says what
// went into each tarball. The packages must be built first (`npm run build`): the tarballs carry dist/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');

/**
 * @typedef {{ name: string, version: string, dir: string, tarball: string, files: string[], manifest: Record<string, any> }} PackedPackage
 */

/** Packs every package into `destination` (created if missing) and returns one entry per tarball. */
export function packPackages(destination) {
  fs.mkdirSync(destination, { recursive: true });
  const dirs = fs
    .readdirSync(path.join(REPO, 'packages'))
    .filter((dir) => fs.existsSync(path.join(REPO, 'packages', dir, 'package.json')))
    .sort();
  const args = ['pack', '--json', '--pack-destination', destination, ...dirs.flatMap((dir) => ['--workspace', `packages/${dir}`])];
  const out = execFileSync('npm', args, { cwd: REPO, encoding: 'utf8', env: cleanNpmEnv(), stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const reports = JSON.parse(out);
  return reports.map((report) => {
    const dir = dirs.map((d) => path.join(REPO, 'packages', d)).find((d) => readManifest(d).name === report.name);
    if (!dir) throw new Error(`npm pack reported ${report.name}, which is no package under packages/`);
    return {
      name: report.name,
      version: report.version,
      dir,
      tarball: path.join(destination, report.filename),
      files: report.files.map((f) => f.path).sort(),
      manifest: readManifest(dir),
    };
  });
}

/**
 * The environment without the `npm_*` variables that an enclosing `npm run` sets (its prefix, its
 * workspace, its package), so that a nested npm behaves as it does when a person types the command.
 */
export function cleanNpmEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...extra };
}

function readManifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
}
