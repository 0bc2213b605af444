#!/usr/bin/env node
// tool_search over a large tool set (figures, never assertions): the core tools plus 500 generated tools
// (tool-search/generate-tools.mjs: 25 services x 5 kinds of things x 4 actions, many near-duplicates), searched
// with the labelled queries of tool-search/queries.mjs (query -> the one right tool) through ToolRegistry.search.
// Reports top-1 and top-5 recall, the time to build the index and to search, and the tokens of the declarations a
// provider is sent: every tool's, or, with deferral, only tool_search's and the core tools' (the generated tools
// found on demand). Tokens: gpt-tokenizer's o200k_base over the OpenAI Chat Completions `tools` JSON.
// Usage: npm run build && node tools/bench/tool-search.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { encode } from 'gpt-tokenizer';
import { generateTools } from './tool-search/generate-tools.mjs';
import { QUERIES } from './tool-search/queries.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const core = require(path.join(root, 'packages/core-tools/dist/index.js'));
const { ToolRegistry, buildSearchIndex, fromFunction, toOpenAIChatTools } = require(path.join(root, 'packages/registry/dist/index.js'));

const workspaceRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-tool-search-')));
process.on('exit', () => fs.rmSync(workspaceRoot, { recursive: true, force: true }));
const registry = new ToolRegistry();
const coreTools = core.registerCoreTools(registry, { workspace: new core.WorkspacePolicy({ root: workspaceRoot }) });
const metaTools = core.registerMetaTools(registry);
const generated = generateTools(500);
for (const tool of generated) {
  const declaration = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    parameterOrder: Object.keys(tool.parameters.properties),
    metadata: {
      tier: tool.group === 'search' ? 'read-only' : 'side-effecting',
      timeoutMs: 30_000,
      sideEffects: [tool.group === 'search' ? 'net-read' : 'net-write'],
      capabilities: ['net.api'],
      determinism: 'maybe',
      resources: { timeoutMs: 30_000 },
      parallel: tool.group === 'search',
      tags: tool.tags,
      group: tool.group,
    },
  };
  registry.add(fromFunction(declaration, async () => ({})));
}
for (const [query, expected] of QUERIES)
  if (!registry.has(expected)) throw new Error(`The query ${JSON.stringify(query)} expects ${expected}, which is not a tool.`);

const buildStart = performance.now();
registry.search('warm up the index');
const buildMs = performance.now() - buildStart;

let top1 = 0;
let top5 = 0;
const misses = [];
const searchStart = performance.now();
for (const [query, expected] of QUERIES) {
  const names = registry.search(query, { limit: 5 }).map((m) => m.name);
  if (names[0] === expected) top1++;
  if (names.includes(expected)) top5++;
  else misses.push(`${JSON.stringify(query)} -> ${expected}; got ${names.slice(0, 3).join(', ') || 'nothing'}`);
}
const searchMs = (performance.now() - searchStart) / QUERIES.length;

// The same tools with the index `toolwright emit --search-index` writes, loaded on the first search instead of built
// (the generated tools' index, as a project's emit would write it; the core and meta tools are indexed beside it).
const indexText = JSON.stringify(buildSearchIndex(generated.map((t) => registry.get(t.name).declaration)));
const loadedRegistry = new ToolRegistry();
for (const tool of registry.list()) loadedRegistry.add(fromFunction(tool, async () => ({})));
const loadStart = performance.now();
loadedRegistry.useSearchIndex(JSON.parse(indexText));
loadedRegistry.search('warm up the index');
const loadMs = performance.now() - loadStart;
if (!loadedRegistry.searchIndexLoaded) throw new Error('The index written ahead of time was not loaded.');
const sameTop5 = QUERIES.filter(([query]) => {
  const names = (r) =>
    r
      .search(query, { limit: 5 })
      .map((m) => m.name)
      .join();
  return names(loadedRegistry) === names(registry);
}).length;

const tokens = (declarations) => encode(JSON.stringify(toOpenAIChatTools(declarations))).length;
const declarationsOf = (tools) => tools.map((t) => t.declaration);
const everyTool = [...declarationsOf(coreTools), ...generated.map((t) => registry.get(t.name).declaration)];
const deferred = [...declarationsOf(metaTools), ...declarationsOf(coreTools)];
const allTokens = tokens(everyTool);
const deferredTokens = tokens(deferred);

const pct = (n) => `${((100 * n) / QUERIES.length).toFixed(1)} %`;
const rows = [
  ['tools', String(registry.size), `${coreTools.length} core + ${generated.length} generated + tool_search`],
  ['labelled queries', String(QUERIES.length), ''],
  ['top-1 recall', pct(top1), `${top1} of ${QUERIES.length}`],
  ['top-5 recall', pct(top5), `${top5} of ${QUERIES.length}`],
  ['index build', `${buildMs.toFixed(1)} ms`, 'on the first search'],
  [
    'index loaded',
    `${loadMs.toFixed(1)} ms`,
    `emit --search-index's file (${(indexText.length / 1024).toFixed(0)} KiB, ${generated.length} tools) + the rest indexed`,
  ],
  ['same top 5 as built', `${sameTop5} of ${QUERIES.length}`, 'queries ranked alike by the loaded index'],
  ['one search', `${searchMs.toFixed(2)} ms`, 'mean, limit 5'],
  ['tokens, every declaration', allTokens.toLocaleString('en-US'), `${everyTool.length} tools, OpenAI format, o200k_base`],
  ['tokens, deferred', deferredTokens.toLocaleString('en-US'), `tool_search + ${coreTools.length} core tools`],
  ['saved by deferral', `${(100 - (100 * deferredTokens) / allTokens).toFixed(1)} %`, ''],
];
const width = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length))];
console.log('\ntool_search: BM25 (MiniSearch) over names, descriptions, parameters, tags and group');
for (const [name, value, note] of rows) console.log(`  ${name.padEnd(width[0])}  ${value.padStart(width[1])}  ${note}`);
if (misses.length > 0) console.log(`\n  not in the top 5 (${misses.length}):\n${misses.map((m) => `    ${m}`).join('\n')}`);
