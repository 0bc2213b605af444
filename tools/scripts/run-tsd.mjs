#!/usr/bin/env node
// Runs tsd for every package that has a `test-d/` folder, against the built declarations.
// tsd checks with `@tsd/typescript`, overridden in the root package.json to the project's TypeScript.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const tsd = path.join(root, 'node_modules', 'tsd', 'dist', 'cli.js');
let failed = 0;
let checked = 0;
for (const dir of fs.readdirSync(path.join(root, 'packages'))) {
  const pkg = path.join(root, 'packages', dir);
  if (!fs.existsSync(path.join(pkg, 'test-d'))) continue;
  const files = fs.readdirSync(path.join(pkg, 'test-d')).filter((f) => f.endsWith('.test-d.ts'));
  checked += files.length;
  const result = spawnSync(process.execPath, [tsd], { cwd: pkg, stdio: 'inherit' });
  if (result.status !== 0) failed++;
  console.log(`tsd ${dir}: ${files.length} type test files ${result.status === 0 ? 'passed' : 'FAILED'}`);
}
if (failed > 0) process.exit(1);
console.log(`tsd: ${checked} type test files passed`);
