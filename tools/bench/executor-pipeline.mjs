#!/usr/bin/env node
// Executor speed, side by side in one run (figures, never assertions):
//  1. the full pipeline for a no-op read-only tool vs calling the function after validating its
//     arguments directly (JSON.parse + a compiled AJV validator);
//  2. argument validation throughput: Toolwright's parse+validate vs JSON.parse+AJV vs JSON.parse+zod;
//  3. 10 concurrent read-only calls of 50 ms through executeBatch (goal: all done in <= 70 ms).
// Usage: node tools/bench/executor-pipeline.mjs [--calls N] [--audit discard|memory|batched|always|none]
// (the pipeline also runs with records dropped in the same run, to show what the audit log costs)
// (discard drops records: it isolates the pipeline's own cost; batched/always/none use the durable AuditLog)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const { ToolRegistry } = require(path.join(root, 'packages/registry/dist/index.js'));
const executorPkg = require(path.join(root, 'packages/executor/dist/index.js'));
const { ToolExecutor, MemoryAuditSink, parseArguments, SchemaValidator } = executorPkg;
const { attachToolDeclaration } = require(path.join(root, 'packages/schema/dist/index.js'));
const { Ajv2020 } = require('ajv/dist/2020.js');
const { z } = require('zod');

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' }, audit: { type: 'string', default: 'batched' } } });
const CALLS = Number(values.calls);

const parameters = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 }, mode: { type: 'string', enum: ['fast', 'safe'] } },
  required: ['path'],
  additionalProperties: false,
};
const declaration = {
  name: 'noop',
  description: 'Does nothing.',
  parameters,
  parameterOrder: ['path', 'limit', 'mode'],
  metadata: {
    tier: 'read-only',
    timeoutMs: 5000,
    sideEffects: [],
    capabilities: [],
    determinism: 'pure',
    resources: { timeoutMs: 5000 },
    parallel: true,
    tags: [],
  },
};
const noop = attachToolDeclaration(async (p) => p.length, declaration);
const argText = '{"path":"src/index.ts","limit":20,"mode":"fast"}';

async function makeAudit(mode) {
  if (mode === 'memory') return { sink: new MemoryAuditSink(), close: async () => {} };
  if (mode === 'discard') return { sink: { append: async () => {}, record: () => {} }, close: async () => {} };
  if (!executorPkg.AuditLog) return { sink: new MemoryAuditSink(), close: async () => {}, note: 'AuditLog not built yet: memory sink used' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-'));
  const log = await executorPkg.AuditLog.open(path.join(dir, 'audit.jsonl'), { durability: mode });
  return {
    sink: log,
    close: async () => {
      await log.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function rate(n, ms) {
  return Math.round((n / ms) * 1000);
}

async function timeIt(label, n, fn) {
  for (let i = 0; i < Math.min(5000, n); i++) await fn(i); // warm-up
  const started = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  const ms = performance.now() - started;
  return { label, n, ms, perSecond: rate(n, ms), usPerCall: (ms * 1000) / n };
}

const results = [];
// 1. Pipeline vs direct.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateDirect = ajv.compile(parameters);
results.push(
  await timeIt('direct: JSON.parse + AJV + call', CALLS, async () => {
    const args = JSON.parse(argText);
    if (!validateDirect(args)) throw new Error('invalid');
    return noop(args.path, args.limit, args.mode);
  }),
);
const audit = await makeAudit(values.audit);
const registry = new ToolRegistry();
registry.register(noop);
const executor = new ToolExecutor({ registry, audit: audit.sink, doomLoop: false });
results.push(
  await timeIt(`pipeline: executeToolCall (audit: ${values.audit}${audit.note ? `; ${audit.note}` : ''})`, CALLS, (i) =>
    executor.executeToolCall({ id: `c${i}`, name: 'noop', arguments: argText }),
  ),
);
await audit.close();
// The same pipeline with records dropped, in the same run: what the audit log costs.
const dropping = new ToolExecutor({ registry, audit: { append: async () => {}, record: () => {} }, doomLoop: false });
results.push(
  await timeIt('pipeline: executeToolCall (records dropped)', CALLS, (i) => dropping.executeToolCall({ id: `d${i}`, name: 'noop', arguments: argText })),
);

// 2. Validation throughput.
const validator = new SchemaValidator();
const zodSchema = z.object({ path: z.string(), limit: z.number().int().min(1).optional(), mode: z.enum(['fast', 'safe']).optional() }).strict();
const V = CALLS * 2;
results.push(
  await timeIt('validate: Toolwright parseArguments + SchemaValidator', V, () => {
    const parsed = parseArguments(argText);
    return parsed.ok && validator.validate(parameters, parsed.value).length === 0;
  }),
);
results.push(await timeIt('validate: JSON.parse + AJV', V, () => validateDirect(JSON.parse(argText))));
results.push(await timeIt('validate: JSON.parse + zod', V, () => zodSchema.safeParse(JSON.parse(argText)).success));

// 3. Ten concurrent 50 ms reads.
const sleepy = attachToolDeclaration(async () => new Promise((resolve) => setTimeout(() => resolve('ok'), 50)), {
  ...declaration,
  name: 'sleepy',
  parameterOrder: [],
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
});
registry.register(sleepy);
const batchTimes = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  await executor.executeBatch(Array.from({ length: 10 }, (_, i) => ({ id: `s${round}_${i}`, name: 'sleepy', arguments: '{}' })));
  batchTimes.push(performance.now() - started);
}

console.log('\nExecutor benchmark (node', process.version, `${os.cpus().length} cores)`);
console.log('| measurement | calls | total ms | calls/s | µs/call |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of results) console.log(`| ${r.label} | ${r.n} | ${r.ms.toFixed(0)} | ${r.perSecond.toLocaleString('en-US')} | ${r.usPerCall.toFixed(2)} |`);
const [direct, pipeline, withoutAudit, ours, ajvOnly, zodOnly] = results;
const ratio = pipeline.usPerCall / direct.usPerCall;
const median = [...batchTimes].sort((a, b) => a - b)[2];
console.log(
  `\npipeline / direct: ${ratio.toFixed(2)}x (goal <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}); pipeline calls/s: ${pipeline.perSecond.toLocaleString('en-US')} (goal >= 200,000: ${pipeline.perSecond >= 200_000 ? 'met' : 'NOT met'})`,
);
console.log(
  `the same pipeline with records dropped: ${withoutAudit.usPerCall.toFixed(2)} µs/call (${withoutAudit.perSecond.toLocaleString('en-US')}/s): the audit log costs ${(pipeline.usPerCall - withoutAudit.usPerCall).toFixed(2)} µs/call`,
);
console.log(
  `validation: Toolwright ${ours.perSecond.toLocaleString('en-US')}/s, AJV ${ajvOnly.perSecond.toLocaleString('en-US')}/s, zod ${zodOnly.perSecond.toLocaleString('en-US')}/s`,
);
console.log(
  `10 concurrent 50 ms reads: median ${median.toFixed(1)} ms over 5 rounds [${batchTimes.map((t) => t.toFixed(1)).join(', ')}] (goal <= 70 ms: ${median <= 70 ? 'met' : 'NOT met'})`,
);
