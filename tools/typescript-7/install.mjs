#!/usr/bin/env node
// Installs the TypeScript 7 versions the TS 7 front end is tested against, each from its own pinned
// lockfile (tools/typescript-7/<minor>/package-lock.json), and prints where each one's `typescript`
// package lies, as JSON: { "7.0": "/…/tools/typescript-7/7.0/node_modules/typescript", … }.
// They live outside the workspace's dependency tree: TypeScript 7's `tsc` would take the place of
// TypeScript 6's in node_modules/.bin. A version already installed at its pin is left as it is.
//   node tools/typescript-7/install.mjs            install what is missing, print the paths
//   node tools/typescript-7/install.mjs --check    print the paths, install nothing (exit 1 if one is missing)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');
const found = {};
let missing = false;
for (const minor of fs
  .readdirSync(here)
  .filter((name) => /^7\.\d+$/.test(name))
  .sort()) {
  const folder = path.join(here, minor);
  const pinned = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')).dependencies.typescript;
  const installed = path.join(folder, 'node_modules', 'typescript');
  const version = () => {
    try {
      return JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (version() !== pinned) {
    if (check) {
      missing = true;
      continue;
    }
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: ['ignore', 'inherit', 'inherit'] });
    if (version() !== pinned) throw new Error(`tools/typescript-7/${minor}: installed ${version() ?? 'nothing'}, not ${pinned}`);
  }
  found[minor] = installed;
}
process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
if (missing) process.exitCode = 1;
