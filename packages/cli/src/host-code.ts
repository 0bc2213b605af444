import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The packages whose code this process runs, and loads more of as it goes (a worker, a lazily required module). */
const OWN_PACKAGES = ['@toolwright/cli', '@toolwright/core-tools', '@toolwright/executor', '@toolwright/mcp', '@toolwright/registry', '@toolwright/sandbox'];

/**
 * The folders this process runs code from, and from which it may load more later: the real folders of Toolwright's
 * own packages and every `node_modules` their modules are resolved through; for a `-p` project, its tsconfig and
 * package.json. In a workspace they must stay out of its tools' reach (protected: read-only in the sandbox, a
 * person's approval for the file tools): a sandboxed command appended to a dependency a worker loads later, or to
 * the project's compiled cache, and the host ran it (found by an eleventh pass).
 */
export function hostCodePaths(project?: string): string[] {
  const load = createRequire(__filename);
  const found = new Set<string>();
  for (const name of OWN_PACKAGES) {
    let root: string;
    try {
      root = real(path.dirname(load.resolve(`${name}/package.json`)));
    } catch {
      continue;
    }
    found.add(root);
    // Every node_modules the package's modules are resolved through, from its folder up.
    for (let dir = root; ; dir = path.dirname(dir)) {
      if (path.basename(dir) === 'node_modules') found.add(dir);
      else if (isDirectory(path.join(dir, 'node_modules'))) found.add(real(path.join(dir, 'node_modules')));
      if (dir === path.dirname(dir)) break;
    }
  }
  if (project !== undefined) {
    const config = path.resolve(project);
    const tsconfig = isDirectory(config) ? path.join(config, 'tsconfig.json') : config;
    found.add(tsconfig);
    const folder = path.dirname(tsconfig);
    found.add(path.join(folder, 'package.json'));
    // Whether or not it is there yet: `-p` compiles the project into `node_modules/.cache` once this list is made
    // (a twelfth pass edited a build made in a node_modules the first start created, and the next start ran it).
    found.add(real(path.join(folder, 'node_modules')));
  }
  return [...found];
}

function real(file: string): string {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return path.resolve(file);
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
