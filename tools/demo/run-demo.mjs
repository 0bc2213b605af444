#!/usr/bin/env node
// The README demo: compile an example project's @tool functions with the transformer (tspc),
// show the declarations the emitted JavaScript carries, write tools.json with `toolwright emit`,
// and show the compile errors a bad signature gets.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const example = path.join(root, 'examples', 'demo-tools');
const broken = path.join(root, 'e2e', 'broken-project');
const node = process.execPath;
const tspc = path.join(root, 'node_modules', 'ts-patch', 'bin', 'tspc.js');
const toolwright = path.join(root, 'packages', 'cli', 'dist', 'bin.js');
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function step(title) {
  console.log(`\n${bold(`== ${title}`)}`);
}
function sh(args, cwd) {
  const started = performance.now();
  const result = spawnSync(node, args, { cwd, encoding: 'utf8' });
  return { ...result, ms: Math.round(performance.now() - started) };
}

step('1. Compile examples/demo-tools with tspc and the Toolwright transformer');
fs.rmSync(path.join(example, 'dist'), { recursive: true, force: true });
const build = sh([tspc, '-p', '.'], example);
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  process.exit(1);
}
console.log(`tspc -p examples/demo-tools: ok in ${build.ms} ms`);

step('2. The declarations the emitted JavaScript carries (getToolDeclaration)');
const require = createRequire(path.join(example, 'package.json'));
const { getToolDeclaration } = require('@toolwright/tool');
const weather = require('./dist/weather.js');
const notes = require('./dist/notes.js');
const convert = require('./dist/convert.js');
const tools = [weather.getForecast, notes.Notebook.prototype.addNote, notes.Notebook.prototype.searchNotes, convert.convertCurrency];
for (const fn of tools) {
  const d = getToolDeclaration(fn);
  console.log(`\n${bold(d.name)}  [${d.metadata.tier}, timeout ${d.metadata.timeoutMs} ms, ${d.source.form} form]`);
  console.log(`  ${d.description}`);
  console.log(JSON.stringify(d.parameters, null, 2).replace(/^/gm, '  '));
  if (d.returns) console.log(`  returns: ${JSON.stringify(d.returns)}`);
}

step('3. Call the compiled tools (the executor, validation and policy arrive with the registry/executor issue)');
const forecast = await weather.getForecast('Lisbon', 2, 'celsius');
console.log(`get_forecast("Lisbon", 2) -> ${JSON.stringify(forecast)}`);
const book = new notes.Notebook();
await book.addNote('Groceries', 'Buy oranges and bread', ['home']);
console.log(`search_notes("oranges") -> ${JSON.stringify(await book.searchNotes('oranges'))}`);
console.log(`convert_currency(100, "EUR", "USD") -> ${JSON.stringify(await convert.convertCurrency(100, 'EUR', 'USD'))}`);

step('4. toolwright emit: the manifest for CI and for builds without transformers');
const emitted = sh([toolwright, 'emit', '--project', 'tsconfig.json', '--out', 'dist/tools.json'], example);
process.stdout.write(emitted.stderr);
console.log(`wrote examples/demo-tools/dist/tools.json (${JSON.parse(fs.readFileSync(path.join(example, 'dist', 'tools.json'), 'utf8')).length} tools)`);

step('5. A bad signature is a compile error at the offending node (e2e/broken-project)');
const failed = sh([toolwright, 'emit', '--project', 'tsconfig.json', '--out', path.join(example, 'dist', 'broken.json')], broken);
process.stdout.write(failed.stderr);
console.log(`(toolwright emit exited with ${failed.status}; tspc, tspc --noEmit and tsc -b fail the same way)`);
