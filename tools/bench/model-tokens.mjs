#!/usr/bin/env node
// What the model reads back from five core-tool calls, in tokens, before and after the model-facing
// rendering (figures, never assertions):
//  before: the JSON of the structured output, as the executor builds `content` without a renderer
//          (normaliseOutput's model text, head+tail truncation at 16 KiB, terminal controls escaped),
//          from the tools as they behaved without a budget (file_read up to 64 KiB, full listings,
//          shell streams up to 32 KiB each, the whole diff);
//  after:  renderForModel of the output the tool returns under a 16 KiB budget, through the same
//          truncation (which then cuts nothing) and escaping.
// Tokens are counted with gpt-tokenizer's o200k_base encoding (GPT-4o and later).
// Usage: npm run build && node tools/bench/model-tokens.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { encode } from 'gpt-tokenizer';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const core = require(path.join(root, 'packages/core-tools/dist/index.js'));
const { ToolRegistry } = require(path.join(root, 'packages/registry/dist/index.js'));
const { runWithToolContext } = require(path.join(root, 'packages/tool/dist/index.js'));
const { normaliseOutput, truncateOutput, escapeTerminalControls, DEFAULT_MAX_OUTPUT_BYTES } = require(path.join(root, 'packages/executor/dist/index.js'));

// A workspace of this repository's own sources (a 3,000-line file made of them) and a fixed file to edit.
const sources = [];
const collect = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '__snapshots__') collect(full);
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) sources.push(full);
  }
};
collect(path.join(root, 'packages/executor/src'));
const lines = sources.flatMap((file) => fs.readFileSync(file, 'utf8').split('\n')).slice(0, 3000);
const workspaceRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-model-tokens-')));
fs.mkdirSync(path.join(workspaceRoot, 'src'));
fs.writeFileSync(path.join(workspaceRoot, 'src/long.ts'), `${lines.join('\n')}\n`);
fs.cpSync(path.join(root, 'packages/core-tools/src'), path.join(workspaceRoot, 'core-tools'), { recursive: true });
writeEditTarget();

const calls = [
  { label: 'file_read of a 3,000-line file', tool: 'file_read', args: { path: 'src/long.ts' } },
  { label: 'file_list, depth 2', tool: 'file_list', args: { path: 'core-tools', depth: 2 } },
  { label: 'file_search "getToolContext"', tool: 'file_search', args: { pattern: 'getToolContext', context: 1 } },
  { label: 'shell_exec "ls -la core-tools/tools"', tool: 'shell_exec', args: { command: 'ls -la core-tools/tools' } },
  {
    label: 'file_edit of one line',
    tool: 'file_edit',
    args: { path: 'src/edit-me.ts', oldText: 'type Step<T> = T | Promise<T>;', newText: 'type Step<T> = T | PromiseLike<T>;' },
  },
];

/** The file the edit call changes, written afresh before each call so every call edits the same text. */
function writeEditTarget() {
  const text = [
    "import type { ToolCall } from './tool-call.js';",
    '',
    'type Step<T> = T | Promise<T>;',
    '',
    '/** Runs the steps of one call in order, waiting only when a step returns a promise. */',
    'export function runSteps<T>(call: ToolCall, steps: readonly ((value: T) => Step<T>)[], first: T): Step<T> {',
    '  let value: Step<T> = first;',
    '  for (const step of steps) value = value instanceof Promise ? value.then(step) : step(value);',
    '  return value;',
    '}',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(workspaceRoot, 'src/edit-me.ts'), text);
}

/** Runs one call as the executor would (the tool's own context, a budget) in a fresh session, returning its output. */
async function invoke(call, maxChars) {
  writeEditTarget();
  const registry = new ToolRegistry();
  core.registerCoreTools(registry, { workspace: new core.WorkspacePolicy({ root: workspaceRoot }), ripgrep: false });
  const tool = registry.get(call.tool);
  const context = { callId: call.tool, toolName: call.tool, signal: new AbortController().signal, progress: () => {}, outputBudget: { maxChars } };
  const args = {};
  for (const name of tool.declaration.parameterOrder) {
    args[name] = call.args[name] ?? tool.declaration.parameters.properties[name]?.default;
  }
  return { tool, output: await runWithToolContext(context, () => tool.invoke(args)) };
}

/** What the model reads: the executor's truncation of the text, with terminal controls escaped. */
const asSent = (text) => {
  const cut = truncateOutput(text, DEFAULT_MAX_OUTPUT_BYTES);
  return { text: escapeTerminalControls(cut.text), cut: cut.truncated };
};

/** For file_read: the numbered lines the model can see, and those silently missing between them. */
function lineReport(text, json, tokens) {
  const numbers = [...text.matchAll(json ? /(?:"|\\n)(\d+)\\t/g : /^(\d+)\t/gm)].map((m) => Number(m[1]));
  if (numbers.length === 0) return '';
  const first = numbers[0];
  const last = numbers.at(-1);
  return `lines ${first}–${last}: ${numbers.length} visible, ${last - first + 1 - new Set(numbers).size} silently missing in between, ${(tokens / numbers.length).toFixed(1)} tokens per visible line`;
}

const rows = [];
for (const call of calls) {
  const { output: unbudgeted } = await invoke(call, Number.MAX_SAFE_INTEGER);
  // file_search's `offset` field is new with the budget; the JSON sent before had none.
  if (call.tool === 'file_search') delete unbudgeted.offset;
  const { tool, output } = await invoke(call, DEFAULT_MAX_OUTPUT_BYTES);
  const before = asSent(normaliseOutput(unbudgeted).text);
  const after = asSent(tool.renderForModel(output));
  const beforeTokens = encode(before.text).length;
  const afterTokens = encode(after.text).length;
  rows.push({
    call: call.label,
    'before: chars': before.text.length,
    'before: tokens': beforeTokens,
    'before: executor cut': before.cut,
    'after: chars': after.text.length,
    'after: tokens': afterTokens,
    'after: executor cut': after.cut,
    'tokens after/before': Number((afterTokens / beforeTokens).toFixed(2)),
  });
  if (call.tool === 'file_read') {
    console.log(`file_read before: ${lineReport(before.text, true, beforeTokens)}`);
    console.log(`file_read after:  ${lineReport(after.text, false, afterTokens)}; its last line: ${after.text.split('\n').at(-1)}`);
  }
}
fs.rmSync(workspaceRoot, { recursive: true, force: true });

console.log(`\nTokens the model reads for the same five calls (o200k_base, budget ${DEFAULT_MAX_OUTPUT_BYTES} bytes)`);
console.table(rows);
const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
console.log(
  `total tokens: before ${total('before: tokens')}, after ${total('after: tokens')} (${(total('after: tokens') / total('before: tokens')).toFixed(2)}x)`,
);
