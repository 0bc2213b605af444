#!/usr/bin/env node
// Runs the packages' type tests (every `packages/*/test-d/*.test-d.ts`) with tsd, against the built declarations, in
// one program (tools/type-tests/tsconfig.json): tsd checks lib and every declaration file a test reaches (it turns
// skipLibCheck off), and one program per package checked the provider SDKs' declarations three times over.
// tsd checks with `@tsd/typescript`, overridden in the root package.json to the project's TypeScript.
import fs from 'node:fs';
import path from 'node:path';
import tsdModule from 'tsd';

const root = path.resolve(import.meta.dirname, '../..');
const cwd = path.join(root, 'tools', 'type-tests');
const { default: tsd, formatter } = tsdModule;

const counts = [];
for (const dir of fs.readdirSync(path.join(root, 'packages')).sort()) {
  const testDir = path.join(root, 'packages', dir, 'test-d');
  if (!fs.existsSync(testDir)) continue;
  counts.push([dir, fs.readdirSync(testDir).filter((file) => file.endsWith('.test-d.ts')).length]);
}
const total = counts.reduce((sum, [, count]) => sum + count, 0);

// tsd asks for a typings file; in one program across packages it is only checked to exist (no rule reads it here).
let diagnostics;
try {
  diagnostics = await tsd({ cwd, typingsFile: '../../packages/tool/dist/index.d.ts', testFiles: ['../../packages/*/test-d/*.test-d.ts'] });
} catch (error) {
  // tsd's own refusals (no test files, no built declarations: run `npm run build` first), said in one line.
  console.error(`tsd: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
if (diagnostics.length > 0) console.log(formatter(diagnostics, false));
console.log(`tsd: ${counts.map(([dir, count]) => `${dir} ${count}`).join(', ')}`);
if (errors.length > 0) {
  console.error(`tsd: ${errors.length} error(s) in ${total} type test files`);
  process.exit(1);
}
console.log(`tsd: ${total} type test files passed`);
